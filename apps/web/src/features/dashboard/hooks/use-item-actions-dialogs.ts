import { useState } from 'react';
import type { PlanId } from '@cloudvault/contract/plans';
import { notify } from '../../../lib/notify';
import { downloadItem } from '../api/download-item';
import { downloadSelection } from '../api/download-selection';
import { dropOfflineCopy, saveOfflineCopy } from '../api/offline-copy';
import type { ItemAction } from '../components/item-menu';
import type { DriveItem } from '../items';
import { announce } from '../../../components/ui/live-region';
import type { SharingSlot, StarItems } from '../slots';

/** The file manager's dialogs; one is open at a time. */
export type BrowserDialog =
  | { type: 'upload' }
  | { type: 'create-folder' }
  | { type: 'delete'; items: DriveItem[] }
  | { type: 'rename'; item: DriveItem }
  | { type: 'move'; items: DriveItem[] }
  | { type: 'copy'; items: DriveItem[] }
  | { type: 'share'; item: DriveItem }
  | { type: 'shortcuts' }
  | null;

interface ItemActionsOptions {
  sharing: Pick<SharingSlot, 'sharesThroughDialog' | 'shareFileAtOnce'>;
  plan: PlanId | undefined;
  /** What an action on `item` acts on: the whole selection when the item is part of it. */
  selectedItems: (item: DriveItem) => DriveItem[];
  /** Opens a folder, or a file in the viewer. */
  open: (item: DriveItem) => void;
  /** Starring (features/starred); null: none. */
  starItems: StarItems | null;
  /** What a change of stars says to screen readers ("3 items starred"). */
  starredText: (count: number, starred: boolean) => string;
}

/**
 * The open dialog and what an item's action does: a download starts at once (with a
 * toast; several items as one zip), a share opens its dialog or shares at once, the others
 * open their dialog. Download, Move, Copy and Delete act on the selection the item is part of.
 */
export function useItemActionsDialogs({ sharing, plan, selectedItems, open, starItems, starredText }: ItemActionsOptions) {
  const [dialog, setDialog] = useState<BrowserDialog>(null);

  function download(items: DriveItem[]) {
    const [only] = items;
    if (items.length === 1 && only) {
      const isFolder = only.kind === 'folder';
      downloadItem(only).then(
        () => notify.success(isFolder ? 'dashboard.download.folderStarted' : 'dashboard.download.fileStarted'),
        // product.md's catalogue gives these two the product's text, never the server's.
        () => notify.error(isFolder ? 'dashboard.download.folderFailed' : 'dashboard.download.fileFailed'),
      );
      return;
    }
    downloadSelection(items).then(
      () => notify.success('dashboard.selection.zipStarted', { values: { count: items.length } }),
      (error: unknown) => notify.error('dashboard.selection.zipFailed', { error }),
    );
  }

  /** `alone`: on this item only, whatever is selected (the viewer's actions, on the file it shows). */
  function runAction(action: ItemAction, item: DriveItem, alone = false) {
    const targets = () => (alone ? [item] : selectedItems(item));
    switch (action) {
      case 'open':
        open(item);
        break;
      case 'download':
        download(targets());
        break;
      case 'share':
        if (sharing.sharesThroughDialog(item, plan)) setDialog({ type: 'share', item });
        else sharing.shareFileAtOnce(item.id);
        break;
      case 'delete':
        setDialog({ type: 'delete', items: targets() });
        break;
      case 'rename':
        setDialog({ type: 'rename', item });
        break;
      case 'move':
        setDialog({ type: 'move', items: targets() });
        break;
      case 'copy':
        setDialog({ type: 'copy', items: targets() });
        break;
      case 'star':
      case 'unstar': {
        const items = targets();
        starItems?.({ items: items.map(({ kind, id }) => ({ kind, id })), starred: action === 'star' });
        announce(starredText(items.length, action === 'star'));
        break;
      }
      // One file's, never the selection's (the menus offer it for one item).
      case 'keep-offline':
        if (item.kind === 'file') saveOfflineCopy(item.file);
        break;
      case 'remove-offline':
        if (item.kind === 'file') dropOfflineCopy(item.file);
        break;
    }
  }

  return { dialog, openDialog: setDialog, closeDialog: () => setDialog(null), runAction, download };
}
