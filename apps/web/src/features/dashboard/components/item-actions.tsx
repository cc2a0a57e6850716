import { Download, EllipsisVertical, FolderInput, Pencil, Share2, Trash2 } from 'lucide-react';
import type { MouseEvent, KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DropdownMenu } from '../../../components/ui/dropdown-menu';
import { cn } from '../../../lib/cn';
import { useVersionHistory } from '../../versions/hooks/use-version-history';
import type { DriveItem } from '../items';

export type ItemAction = 'download' | 'share' | 'delete' | 'rename' | 'move';

/** Clicks and keys on an item's own controls never select or open the item beneath. */
const stop = (event: MouseEvent | KeyboardEvent) => event.stopPropagation();

interface ItemActionsProps {
  item: DriveItem;
  onAction: (action: ItemAction, item: DriveItem) => void;
  /** In the Tab order only on the grid's active item. */
  tabbable: boolean;
  /** Phone list rows: only the menu (which holds every action) until the row is selected. */
  menuOnlyOnPhones?: boolean;
  className?: string;
}

/**
 * Download, Share and Delete as icon buttons (folders: Download folder, Share folder,
 * Delete folder), then a menu with every action, Rename and Move included.
 */
export function ItemActions({ item, onAction, tabbable, menuOnlyOnPhones = false, className }: ItemActionsProps) {
  const { t } = useTranslation();
  const isFolder = item.kind === 'folder';
  const tabIndex = tabbable ? 0 : -1;
  const versionHistory = useVersionHistory(item.kind === 'file' ? item.file : null);
  const buttons = [
    { action: 'download' as const, icon: Download, label: isFolder ? t('dashboard.item.downloadFolder') : t('dashboard.item.download') },
    { action: 'share' as const, icon: Share2, label: isFolder ? t('dashboard.item.shareFolder') : t('dashboard.item.share') },
    { action: 'delete' as const, icon: Trash2, label: isFolder ? t('dashboard.item.deleteFolder') : t('dashboard.item.delete') },
  ];

  return (
    <div
      className={cn('flex items-center gap-0.5', className)}
      onClick={stop}
      onDoubleClick={stop}
      onKeyDown={stop}
      onPointerDown={stop}
    >
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
        items={[
          ...buttons
            .filter(({ action }) => action !== 'delete')
            .map(({ action, icon, label }) => ({ id: action, label, icon, onSelect: () => onAction(action, item) })),
          { id: 'rename', label: t('dashboard.item.rename'), icon: Pencil, onSelect: () => onAction('rename', item) },
          { id: 'move', label: t('dashboard.item.move'), icon: FolderInput, onSelect: () => onAction('move', item) },
          ...versionHistory.menuItems,
          {
            id: 'delete',
            label: isFolder ? t('dashboard.item.deleteFolder') : t('dashboard.item.delete'),
            icon: Trash2,
            tone: 'danger',
            separatorBefore: true,
            onSelect: () => onAction('delete', item),
          },
        ]}
      />
      {versionHistory.dialog}
    </div>
  );
}
