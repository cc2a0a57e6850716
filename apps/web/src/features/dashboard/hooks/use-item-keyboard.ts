import type { KeyboardEvent } from 'react';
import type { ItemAction } from '../components/item-actions';
import { itemKeyCommand } from '../item-keyboard';
import type { DriveItem } from '../items';
import type { ViewMode } from './use-view-mode';

interface ItemKeyboardOptions {
  items: DriveItem[];
  view: ViewMode;
  columns: number;
  indexOfKey: (key: string) => number;
  /** Scrolls to and focuses the item at this index. */
  focusIndex: (index: number) => void;
  /** The arrows moved to this item. */
  onMoveTo: (item: DriveItem) => void;
  onToggle: (item: DriveItem) => void;
  onOpen: (item: DriveItem) => void;
  onAction: (action: ItemAction, item: DriveItem) => void;
  onClearSelection: () => void;
}

/** The listing's key handler: the commands of `itemKeyCommand`, on the item that has the focus. */
export function useItemKeyboard(options: ItemKeyboardOptions) {
  const { items, view, columns, indexOfKey, focusIndex } = options;
  return (event: KeyboardEvent<HTMLElement>) => {
    const target = event.target as HTMLElement;
    // Keys on an item's own buttons and menus are theirs.
    if (!target.dataset.itemKey) return;
    const index = indexOfKey(target.dataset.itemKey);
    const item = items[index];
    if (!item) return;
    const command = itemKeyCommand(event.key, { index, count: items.length, columns, view });
    if (!command) return;
    // Escape is left to the page around the listing as well: its default stays.
    if (command.kind !== 'clear-selection') event.preventDefault();
    switch (command.kind) {
      case 'move': {
        const nextItem = items[command.index];
        if (!nextItem) return;
        options.onMoveTo(nextItem);
        focusIndex(command.index);
        return;
      }
      case 'open':
        options.onOpen(item);
        return;
      case 'toggle':
        options.onToggle(item);
        return;
      case 'delete':
        options.onAction('delete', item);
        return;
      case 'rename':
        options.onAction('rename', item);
        return;
      case 'clear-selection':
        options.onClearSelection();
        return;
    }
  };
}
