import { Download, EllipsisVertical, Share2, Trash2 } from 'lucide-react';
import { useContext, type MouseEvent, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DropdownMenu, type DropdownMenuItem } from '../../../components/ui/dropdown-menu';
import { cn } from '../../../lib/cn';
import { useOfflineEntry } from '../hooks/use-offline-entry';
import type { DriveItem } from '../items';
import { DriveScopeContext, StarringContext, type VersionHistorySlot } from '../slots';
import { itemMenuEntries, type ItemAction } from './item-menu';

export type { ItemAction } from './item-menu';

/** Clicks and keys on an item's own controls never select or open the item beneath. */
const stop = (event: MouseEvent | KeyboardEvent) => event.stopPropagation();

interface ItemActionsProps {
  item: DriveItem;
  onAction: (action: ItemAction, item: DriveItem) => void;
  /** A file's version history entries (folders have none). */
  versionHistory: VersionHistorySlot;
  /** In the Tab order only on the grid's active item. */
  tabbable: boolean;
  /** Phone list rows: only the menu (which holds every action) until the row is selected. */
  menuOnlyOnPhones?: boolean;
  /** How many items the menu acts on: the selection's size when the item is part of it. */
  count?: number;
  className?: string;
}

/**
 * Download, Share and Delete as icon buttons (folders: Download folder, Share folder,
 * Delete folder), then a menu with every action (item-menu.ts, shared with the context
 * menu), Rename, Move and Copy included, and a file's version history.
 */
export function ItemActions({ item, versionHistory: VersionHistory, ...props }: ItemActionsProps) {
  if (item.kind === 'folder') return <ActionsBar item={item} {...props} history={noHistory} />;
  return <VersionHistory file={item.file}>{(history) => <ActionsBar item={item} {...props} history={history} />}</VersionHistory>;
}

const noHistory = { menuItems: [], dialog: null };

interface ActionsBarProps extends Omit<ItemActionsProps, 'versionHistory'> {
  history: { menuItems: DropdownMenuItem[]; dialog: ReactNode };
}

function ActionsBar({ item, onAction, tabbable, menuOnlyOnPhones = false, count = 1, className, history }: ActionsBarProps) {
  const { t } = useTranslation();
  const isFolder = item.kind === 'folder';
  const tabIndex = tabbable ? 0 : -1;
  const canStar = useContext(StarringContext) !== null;
  const starred = canStar ? (isFolder ? item.folder.starred : item.file.starred) === true : undefined;
  const canShare = useContext(DriveScopeContext) === null;
  const offline = useOfflineEntry(item);
  const buttons = [
    { action: 'download' as const, icon: Download, label: isFolder ? t('dashboard.item.downloadFolder') : t('dashboard.item.download') },
    ...(canShare
      ? [{ action: 'share' as const, icon: Share2, label: isFolder ? t('dashboard.item.shareFolder') : t('dashboard.item.share') }]
      : []),
    { action: 'delete' as const, icon: Trash2, label: isFolder ? t('dashboard.item.deleteFolder') : t('dashboard.item.delete') },
  ];

  return (
    <div className={cn('flex items-center gap-0.5', className)} onClick={stop} onDoubleClick={stop} onKeyDown={stop} onPointerDown={stop}>
      {buttons.map(({ action, icon: Icon, label }) => (
        <button
          key={action}
          type="button"
          tabIndex={tabIndex}
          aria-label={label}
          title={label}
          onClick={() => onAction(action, item)}
          className={cn(
            'focus-ring size-8 place-items-center rounded-lg text-ink-muted transition-colors hover:bg-surface-muted hover:text-ink',
            menuOnlyOnPhones ? 'hidden sm:grid' : 'grid',
            action === 'delete' && 'hover:bg-danger-soft hover:text-danger',
          )}
        >
          <Icon aria-hidden="true" className="size-4" />
        </button>
      ))}
      <DropdownMenu
        label={t('dashboard.item.moreActions')}
        triggerTabIndex={tabIndex}
        triggerClassName="grid size-8 place-items-center rounded-lg text-ink-muted transition-colors hover:bg-surface-muted hover:text-ink aria-expanded:bg-surface-muted"
        trigger={<EllipsisVertical aria-hidden="true" className="size-4" />}
        items={itemMenuEntries(item, { t, count, onAction, historyItems: history.menuItems, starred, canShare, offline })}
      />
      {history.dialog}
    </div>
  );
}
