import { useTranslation } from 'react-i18next';
import { cn } from '../../../lib/cn';
import { useItemFocus } from '../hooks/use-item-focus';
import type { ItemInteractionCallbacks } from '../hooks/use-item-interactions';
import { useItemKeyboard } from '../hooks/use-item-keyboard';
import { useStagger } from '../hooks/use-stagger';
import type { ViewMode } from '../hooks/use-view-mode';
import { useVirtualItemRows } from '../hooks/use-virtual-item-rows';
import type { DriveItem } from '../items';
import type { VersionHistorySlot } from '../slots';
import { staggerDelay } from '../stagger';
import type { ItemAction } from './item-actions';
import type { ItemCellProps } from './item-cell';
import { ItemRow } from './item-row';
import { ItemTile } from './item-tile';
import { ListHeader } from './list-header';

export interface ItemCollectionProps extends ItemInteractionCallbacks {
  items: DriveItem[];
  view: ViewMode;
  selection: ReadonlySet<string>;
  /** The item with the roving tab stop (arrow keys move it). */
  activeKey: string | null;
  /** Scroll to and focus the active item once shown (arriving from a search hit). */
  revealActive?: boolean;
  /** Touch or narrow screen: folders open on a second tap instead of a double click. */
  narrow: boolean;
  /** Changes when another folder is shown: its tiles come in with the stagger. */
  animationKey: string;
  /** Keyboard: the arrows moved to this item. */
  onMoveTo: (item: DriveItem) => void;
  onToggle: (item: DriveItem) => void;
  onOpen: (item: DriveItem) => void;
  /** Focus this item (scrolled into view): the viewer closed on it. A new object asks again. */
  focusRequest?: { key: string } | null;
  onAction: (action: ItemAction, item: DriveItem) => void;
  /** A file's version history, in its menu. */
  versionHistory: VersionHistorySlot;
  onClearSelection: () => void;
}

/**
 * The folder's items as a grid of tiles or a list, rendering only the rows in view (so
 * 10,000 items scroll smoothly), with the WAI-ARIA grid keyboard model: one tab stop,
 * arrows move, Enter opens, Space toggles, Delete asks to delete, F2 renames.
 */
export function ItemCollection(props: ItemCollectionProps) {
  const { items, view, activeKey } = props;
  const { t, i18n } = useTranslation();
  const rows = useVirtualItemRows(items.length, view);
  const { columns, virtualizer, virtualRows } = rows;
  const animating = useStagger(props.animationKey);
  const { indexOfKey, focusIndex } = useItemFocus({
    items,
    rows,
    activeKey,
    revealActive: props.revealActive,
    focusRequest: props.focusRequest,
  });
  const onKeyDown = useItemKeyboard({ ...props, columns, indexOfKey, focusIndex });

  const activeIndex = Math.max(0, indexOfKey(activeKey));
  const tabStopKey = items[activeIndex]?.key ?? null;
  const firstRow = virtualRows[0]?.index ?? 0;
  const interactions: ItemInteractionCallbacks = {
    onItemClick: props.onItemClick,
    onItemDoubleClick: props.onItemDoubleClick,
    dragRefsFor: props.dragRefsFor,
    onDropOnFolder: props.onDropOnFolder,
    onItemContextMenu: props.onItemContextMenu,
    onItemLongPress: props.onItemLongPress,
  };

  return (
    <div
      ref={rows.containerRef}
      role="grid"
      aria-label={t('dashboard.list.label')}
      aria-multiselectable="true"
      aria-rowcount={rows.rowCount + (view === 'list' ? 1 : 0)}
      onKeyDown={onKeyDown}
      data-view={view}
      className="relative"
    >
      {view === 'list' && <ListHeader />}
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualRows.map((row) => {
          const rowItems = items.slice(row.index * columns, row.index * columns + columns);
          return (
            <div
              key={row.key}
              role="row"
              aria-rowindex={row.index + (view === 'list' ? 2 : 1)}
              className={cn('absolute inset-x-0 top-0', view === 'grid' ? 'grid gap-3' : 'block')}
              style={{
                height: rows.cellHeight,
                transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)`,
                gridTemplateColumns: view === 'grid' ? `repeat(${columns}, minmax(0, 1fr))` : undefined,
              }}
            >
              {rowItems.map((item, column) => {
                const order = (row.index - firstRow) * columns + column;
                const cell: ItemCellProps = {
                  item,
                  tabbable: item.key === tabStopKey,
                  selected: props.selection.has(item.key),
                  selectionCount: props.selection.size,
                  animationDelay: animating ? staggerDelay(order) : null,
                  locale: i18n.language,
                  narrow: props.narrow,
                  interactions,
                  onAction: props.onAction,
                  versionHistory: props.versionHistory,
                };
                return view === 'grid' ? (
                  <ItemTile key={item.key} {...cell} compact={rows.compact} />
                ) : (
                  <ItemRow key={item.key} {...cell} />
                );
              })}
            </div>
          );
        })}
      </div>
    </div>
  );
}
