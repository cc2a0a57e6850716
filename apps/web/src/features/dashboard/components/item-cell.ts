import type { ItemHandlers, ItemInteractionCallbacks } from '../hooks/use-item-interactions';
import type { DriveItem } from '../items';
import type { VersionHistorySlot } from '../slots';
import type { ItemAction } from './item-actions';

/** What a tile and a row are given: one item of the listing and what can be done with it. */
export interface ItemCellProps {
  item: DriveItem;
  /** The item has the listing's roving tab stop. */
  tabbable: boolean;
  selected: boolean;
  /** How many items are selected: the item's menu acts on them all when it is one of them. */
  selectionCount: number;
  /** ms, or null for no entrance animation. */
  animationDelay: number | null;
  locale: string;
  /** Touch or narrow screen: no dragging, and a selected folder hints that a second tap opens it. */
  narrow: boolean;
  interactions: ItemInteractionCallbacks;
  onAction: (action: ItemAction, item: DriveItem) => void;
  /** A file's version history, in its menu. */
  versionHistory: VersionHistorySlot;
}

/**
 * What a tile and a row share as one cell of the grid: its role, state, keys and handlers.
 * Its name is its visible text (name, size, date), so it starts with what a person sees
 * and says (WCAG 2.5.3); the action buttons inside stay out of it.
 */
export function cellAttributes(cell: ItemCellProps, handlers: ItemHandlers, labelId: string) {
  const { item, selected, tabbable, animationDelay } = cell;
  return {
    role: 'gridcell',
    'aria-selected': selected,
    'aria-labelledby': labelId,
    'data-item-key': item.key,
    'data-kind': item.kind,
    tabIndex: tabbable ? 0 : -1,
    ...handlers,
    style: animationDelay !== null ? { animationDelay: `${animationDelay}ms` } : undefined,
  };
}
