import type { TFunction } from 'i18next';
import { CircleArrowDown, CircleMinus, Copy, Download, FolderInput, FolderOpen, Pencil, Share2, Star, StarOff, Trash2 } from 'lucide-react';
import type { DropdownMenuItem } from '../../../components/ui/dropdown-menu';
import type { DriveItem } from '../items';

/** What can be done with an item, from its buttons, its ⋯ menu, its context menu, the keys or the selection bar. */
export type ItemAction =
  'open' | 'download' | 'share' | 'delete' | 'rename' | 'move' | 'copy' | 'star' | 'unstar' | 'keep-offline' | 'remove-offline';

interface ItemMenuOptions {
  t: TFunction;
  /** How many items the menu acts on: those selected when the item is one of them, else 1. */
  count: number;
  onAction: (action: ItemAction, item: DriveItem) => void;
  /** A file's version history entries (folders have none). */
  historyItems: DropdownMenuItem[];
  /** The context menu leads with Open. */
  withOpen?: boolean;
  /** Whether what the menu acts on is starred (Unstar) or not (Star); undefined: no starring here. */
  starred?: boolean;
  /** Share is the owner's: not offered inside a folder shared with the user (DriveScope). */
  canShare?: boolean;
  /** A file's copy on this device ("available offline"): kept or not; undefined where the device keeps none (folders, no Cache Storage). */
  offline?: 'kept' | 'not-kept';
}

/**
 * The entries of an item's menus, the ⋯ menu and the context menu alike, so that they never
 * drift apart: Download, Share, Rename, Move, Copy, Star, the copy on the device, the version
 * history and Delete. Acting on several items, what needs one (Share, Rename, the device's
 * copy, the history) is left out.
 */
export function itemMenuEntries(
  item: DriveItem,
  { t, count, onAction, historyItems, withOpen = false, starred, canShare = true, offline }: ItemMenuOptions,
): DropdownMenuItem[] {
  const isFolder = item.kind === 'folder';
  const one = count <= 1;
  const entry = (action: ItemAction, label: string, icon: DropdownMenuItem['icon']): DropdownMenuItem => ({
    id: action,
    label,
    icon,
    onSelect: () => onAction(action, item),
  });
  const entries: DropdownMenuItem[] = [];
  if (withOpen && one) entries.push(entry('open', t('dashboard.item.open'), FolderOpen));
  entries.push(entry('download', one && isFolder ? t('dashboard.item.downloadFolder') : t('dashboard.item.download'), Download));
  if (one) {
    if (canShare) entries.push(entry('share', isFolder ? t('dashboard.item.shareFolder') : t('dashboard.item.share'), Share2));
    entries.push(entry('rename', t('dashboard.item.rename'), Pencil));
  }
  entries.push(entry('move', t('dashboard.item.move'), FolderInput));
  entries.push(entry('copy', t('dashboard.contextMenu.copy'), Copy));
  if (starred !== undefined) {
    entries.push(starred ? entry('unstar', t('dashboard.selection.unstar'), StarOff) : entry('star', t('dashboard.selection.star'), Star));
  }
  if (one && offline !== undefined) {
    entries.push(
      offline === 'kept'
        ? entry('remove-offline', t('offlineFiles.remove'), CircleMinus)
        : entry('keep-offline', t('offlineFiles.keep'), CircleArrowDown),
    );
  }
  if (one) entries.push(...historyItems);
  const deleteLabel = !one
    ? t('dashboard.contextMenu.deleteMany', { count })
    : isFolder
      ? t('dashboard.item.deleteFolder')
      : t('dashboard.item.delete');
  entries.push({ ...entry('delete', deleteLabel, Trash2), tone: 'danger', separatorBefore: true });
  return entries;
}
