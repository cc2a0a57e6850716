import { useState, type MouseEvent } from 'react';
import { createTapTracker } from '../double-tap';
import type { DriveItem } from '../items';
import type { ItemSelection } from './use-item-selection';

interface ItemClickOptions {
  /** Touch or a narrow screen (useTouchOrNarrow). */
  narrow: boolean;
  selection: Pick<ItemSelection, 'setActiveKey' | 'toggle' | 'selectOnly' | 'selectRange' | 'selection' | 'clear'>;
  /** The keys of the items shown, in their order: what a Shift-click's range runs through. */
  order: readonly string[];
  /** A long press started selecting on touch: taps toggle, and open nothing, until the selection is empty. */
  selecting?: boolean;
  /** Opens a folder, or a file in the viewer. */
  open: (item: DriveItem) => void;
  openFolder: (folderId: string) => void;
}

/**
 * What a click, a tap or a double click on an item does (docs/product.md#dashboard): a click
 * selects the item alone (or deselects it when it is the only one selected); Ctrl or Cmd
 * toggles it; Shift selects the range from the last item clicked (adding to the selection
 * with Ctrl or Cmd too). A folder opens by a double click or, on touch and narrow screens, by
 * a second tap; a tap on a phone opens a file. While selecting by touch, taps toggle.
 */
export function useItemClicks({ narrow, selection, order, selecting = false, open, openFolder }: ItemClickOptions) {
  const [tap] = useState(() => createTapTracker());

  const onItemClick = (item: DriveItem, event: MouseEvent) => {
    selection.setActiveKey(item.key);
    if (event.shiftKey) {
      selection.selectRange(item.key, order, event.ctrlKey || event.metaKey);
      return;
    }
    if (event.ctrlKey || event.metaKey || selecting) {
      selection.toggle(item);
      return;
    }
    if (item.kind === 'folder') {
      // Touch and narrow screens: a second tap within 300 ms opens.
      if (narrow && tap(item.key, performance.now()) === 'open') {
        openFolder(item.id);
        return;
      }
      selection.selectOnly(item.key);
    } else if (narrow) {
      // docs/product.md: a tap on a phone opens a file in the viewer.
      open(item);
    } else if (selection.selection.size === 1 && selection.selection.has(item.key)) {
      // docs/product.md: a click on a file selects or deselects it.
      selection.clear();
    } else {
      selection.selectOnly(item.key);
    }
  };

  const onItemDoubleClick = (item: DriveItem) => {
    if (narrow && item.kind === 'folder') return; // The tap logic handles it.
    if (selecting) return; // Taps toggle while selecting by touch.
    open(item);
  };

  return { onItemClick, onItemDoubleClick };
}
