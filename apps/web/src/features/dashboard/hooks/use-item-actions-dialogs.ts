import { useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import type { PlanId } from '@cloudvault/contract/plans';
import { downloadItem } from '../api/download-item';
import type { ItemAction } from '../components/item-actions';
import type { DriveItem } from '../items';
import type { SharingSlot } from '../slots';

/** The file manager's dialogs; one is open at a time. */
export type BrowserDialog =
  | { type: 'upload' }
  | { type: 'create-folder' }
  | { type: 'delete'; item: DriveItem }
  | { type: 'rename'; item: DriveItem }
  | { type: 'move'; items: DriveItem[] }
  | { type: 'share'; item: DriveItem }
  | null;

interface ItemActionsOptions {
  sharing: Pick<SharingSlot, 'sharesThroughDialog' | 'shareFileAtOnce'>;
  plan: PlanId | undefined;
  /** What a move of `item` moves: the whole selection when the item is part of it. */
  selectedItems: (item: DriveItem) => DriveItem[];
}

/**
 * The open dialog and what an item's action does: a download starts at once (with a
 * toast), a share opens its dialog or shares at once, the others open their dialog.
 */
export function useItemActionsDialogs({ sharing, plan, selectedItems }: ItemActionsOptions) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<BrowserDialog>(null);

  function runAction(action: ItemAction, item: DriveItem) {
    const isFolder = item.kind === 'folder';
    switch (action) {
      case 'download':
        downloadItem(item).then(
          () => toast.success(isFolder ? t('dashboard.download.folderStarted') : t('dashboard.download.fileStarted')),
          () => toast.error(isFolder ? t('dashboard.download.folderFailed') : t('dashboard.download.fileFailed')),
        );
        break;
      case 'share':
        if (sharing.sharesThroughDialog(item, plan)) setDialog({ type: 'share', item });
        else sharing.shareFileAtOnce(item.id);
        break;
      case 'delete':
        setDialog({ type: 'delete', item });
        break;
      case 'rename':
        setDialog({ type: 'rename', item });
        break;
      case 'move':
        setDialog({ type: 'move', items: selectedItems(item) });
        break;
    }
  }

  return { dialog, openDialog: setDialog, closeDialog: () => setDialog(null), runAction };
}
