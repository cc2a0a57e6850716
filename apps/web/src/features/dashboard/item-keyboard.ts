import type { ViewMode } from './hooks/use-view-mode';

/** Rows that PageUp and PageDown move by. */
const PAGE_ROWS = 5;

/** What a key pressed on an item asks for, in the WAI-ARIA grid keyboard model. */
export type ItemKeyCommand =
  | { kind: 'move'; index: number }
  | { kind: 'open' }
  | { kind: 'toggle' }
  | { kind: 'delete' }
  | { kind: 'rename' }
  | { kind: 'clear-selection' };

export interface ItemKeyPosition {
  /** The focused item's index in the listing. */
  index: number;
  count: number;
  /** Items per row: 1 in the list. */
  columns: number;
  view: ViewMode;
}

/**
 * The command of `key` pressed on the item at `position.index`: arrows, Home, End and the
 * page keys move (clamped to the listing; left and right only in the grid), Enter opens,
 * Space toggles, Delete and Backspace ask to delete, F2 renames, Escape clears the
 * selection. null: the key is not the listing's.
 */
export function itemKeyCommand(key: string, { index, count, columns, view }: ItemKeyPosition): ItemKeyCommand | null {
  const last = count - 1;
  const move = (to: number): ItemKeyCommand => ({ kind: 'move', index: Math.max(0, Math.min(last, to)) });
  switch (key) {
    case 'ArrowRight':
      return view === 'grid' ? move(index + 1) : null;
    case 'ArrowLeft':
      return view === 'grid' ? move(index - 1) : null;
    case 'ArrowDown':
      return move(index + columns);
    case 'ArrowUp':
      return move(index - columns);
    case 'Home':
      return move(0);
    case 'End':
      return move(last);
    case 'PageDown':
      return move(index + columns * PAGE_ROWS);
    case 'PageUp':
      return move(index - columns * PAGE_ROWS);
    case 'Enter':
      return { kind: 'open' };
    case ' ':
      return { kind: 'toggle' };
    case 'Delete':
    case 'Backspace':
      return { kind: 'delete' };
    case 'F2':
      return { kind: 'rename' };
    case 'Escape':
      return { kind: 'clear-selection' };
    default:
      return null;
  }
}
