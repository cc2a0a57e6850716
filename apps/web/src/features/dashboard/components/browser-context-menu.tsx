import { ClipboardPaste, FolderPlus, FolderUp, Upload } from 'lucide-react';
import { useContext } from 'react';
import { useTranslation } from 'react-i18next';
import { ContextMenu } from '../../../components/ui/context-menu';
import type { DropdownMenuItem } from '../../../components/ui/dropdown-menu';
import type { ContextMenuTarget } from '../hooks/use-browser-context-menu';
import { useOfflineEntry } from '../hooks/use-offline-entry';
import type { DriveItem } from '../items';
import { DriveScopeContext, type VersionHistorySlot } from '../slots';
import { itemMenuEntries, type ItemAction } from './item-menu';

interface BrowserContextMenuProps {
  target: ContextMenuTarget | null;
  open: boolean;
  onClose: (returnFocus: boolean) => void;
  onAction: (action: ItemAction, item: DriveItem) => void;
  versionHistory: VersionHistorySlot;
  onNewFolder: () => void;
  onUploadFiles: () => void;
  onUploadFolder: () => void;
  /** Items on the clipboard to paste here (0: no Paste). */
  pasteCount: number;
  onPaste: () => void;
  /** Whether the items the menu acts on are all starred; undefined: no starring. */
  starred?: boolean;
}

/**
 * The file manager's context menu: an item's (item-menu.ts, as its ⋯ menu, with Open first)
 * or the background's (New folder, Upload files, Upload folder, and Paste when the clipboard
 * holds items). A file's version history dialog stays mounted after its menu closes.
 */
export function BrowserContextMenu({ target, open, onClose, onAction, versionHistory: VersionHistory, ...props }: BrowserContextMenuProps) {
  const { t } = useTranslation();
  const scope = useContext(DriveScopeContext);
  const offline = useOfflineEntry(target?.kind === 'item' ? target.item : null);
  if (!target) return null;

  if (target.kind === 'background') {
    if (!open) return null;
    const items: DropdownMenuItem[] = [
      { id: 'new-folder', label: t('dashboard.contextMenu.newFolder'), icon: FolderPlus, onSelect: props.onNewFolder },
      { id: 'upload-files', label: t('dashboard.contextMenu.uploadFiles'), icon: Upload, onSelect: props.onUploadFiles },
      { id: 'upload-folder', label: t('dashboard.contextMenu.uploadFolder'), icon: FolderUp, onSelect: props.onUploadFolder },
    ];
    if (props.pasteCount > 0) {
      items.push({
        id: 'paste',
        label: t('dashboard.contextMenu.paste', { count: props.pasteCount }),
        icon: ClipboardPaste,
        separatorBefore: true,
        onSelect: props.onPaste,
      });
    }
    return <ContextMenu label={t('dashboard.contextMenu.background')} items={items} at={target.at} onClose={onClose} />;
  }

  const { item, count } = target;
  const canShare = scope === null;
  const label = count > 1 ? t('dashboard.contextMenu.selection', { count }) : t('dashboard.contextMenu.item', { name: item.name });
  const menu = (historyItems: DropdownMenuItem[]) =>
    open && (
      <ContextMenu
        label={label}
        items={itemMenuEntries(item, { t, count, onAction, historyItems, withOpen: true, starred: props.starred, canShare, offline })}
        at={target.at}
        onClose={onClose}
      />
    );
  if (item.kind === 'folder') return menu([]);
  return (
    <VersionHistory key={item.key} file={item.file}>
      {(history) => (
        <>
          {menu(history.menuItems)}
          {history.dialog}
        </>
      )}
    </VersionHistory>
  );
}
