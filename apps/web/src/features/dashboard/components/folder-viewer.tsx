import { Share2, Trash2 } from 'lucide-react';
import { useContext, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReactNode } from 'react';
import type { DropdownMenuItem } from '../../../components/ui/dropdown-menu';
import type { ViewedFile } from '../../../hooks/use-viewed-file';
import { signedInFileSource } from '../../../lib/file-source';
import { useOfflineEntry } from '../hooks/use-offline-entry';
import type { DriveItem } from '../items';
import { DriveScopeContext, type VersionHistorySlot, type ViewerSlot } from '../slots';
import type { ItemAction } from './item-actions';
import { itemMenuEntries } from './item-menu';

interface FolderViewerProps {
  viewer: ViewerSlot;
  viewed: ViewedFile & { fileId: string };
  /** The folder's items: their files are what the viewer pages through. */
  visible: DriveItem[];
  /** All the folder's items, where the viewer's file is found for its actions. */
  items: DriveItem[];
  onAction: (action: ItemAction, item: DriveItem) => void;
  versionHistory: VersionHistorySlot;
}

/**
 * The viewer over the open folder (its file in the address: ?view=<id>), paging through
 * the files shown, with Share, Delete, the copy on the device and the version history in its toolbar.
 */
export function FolderViewer({ viewer: Viewer, viewed, visible, items, onAction, versionHistory: VersionHistory }: FolderViewerProps) {
  const { t } = useTranslation();
  // Share is the owner's: not offered inside a folder shared with the user.
  const canShare = useContext(DriveScopeContext) === null;
  const files = useMemo(() => visible.flatMap((item) => (item.kind === 'file' ? [item.file] : [])), [visible]);
  return (
    <Viewer
      files={files}
      fileId={viewed.fileId}
      source={signedInFileSource}
      onMove={viewed.move}
      onClose={viewed.close}
      renderActions={(file, toolbar) => {
        const item = items.find((entry) => entry.kind === 'file' && entry.id === file.id);
        if (!item || item.kind !== 'file') return toolbar([]);
        const actions = [
          ...(canShare ? [{ id: 'share', label: t('dashboard.item.share'), icon: Share2, onSelect: () => onAction('share', item) }] : []),
          {
            id: 'delete',
            label: t('dashboard.item.delete'),
            icon: Trash2,
            tone: 'danger' as const,
            onSelect: () => onAction('delete', item),
          },
        ];
        return (
          <OfflineCopyEntry item={item} onAction={onAction}>
            {(offline) => (
              <VersionHistory file={item.file}>
                {(history) => toolbar([...offline, ...history.menuItems, ...actions], history.dialog)}
              </VersionHistory>
            )}
          </OfflineCopyEntry>
        );
      }}
    />
  );
}

/** "Make available offline" or "Remove offline copy" for the file shown, as its menus offer them (item-menu.ts). */
function OfflineCopyEntry({
  item,
  onAction,
  children,
}: {
  item: DriveItem;
  onAction: (action: ItemAction, item: DriveItem) => void;
  children: (entries: DropdownMenuItem[]) => ReactNode;
}) {
  const { t } = useTranslation();
  const offline = useOfflineEntry(item);
  const entries = itemMenuEntries(item, { t, count: 1, onAction, historyItems: [], offline }).filter(
    (entry) => entry.id === 'keep-offline' || entry.id === 'remove-offline',
  );
  return children(entries);
}
