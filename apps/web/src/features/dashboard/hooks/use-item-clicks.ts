import { useState, type MouseEvent } from 'react';
import { createTapTracker } from '../double-tap';
import type { DriveItem } from '../items';
import type { ItemSelection } from './use-item-selection';

interface ItemClickOptions {
  /** Touch or a narrow screen (useTouchOrNarrow). */
  narrow: boolean;
  selection: Pick<ItemSelection, 'setActiveKey' | 'toggle' | 'selectOnly'>;
  /** Opens a folder, or a file in the viewer. */
  open: (item: DriveItem) => void;
  openFolder: (folderId: string) => void;
}

/**
 * What a click, a tap or a double click on an item does (docs/product.md#dashboard): Ctrl
 * or Cmd toggles; a folder is selected, and opened by a double click or, on touch and
 * narrow screens, by a second tap; a file is toggled, or opened by a tap on a phone.
 */
export function useItemClicks({ narrow, selection, open, openFolder }: ItemClickOptions) {
  const [tap] = useState(() => createTapTracker());

  const onItemClick = (item: DriveItem, event: MouseEvent) => {
    selection.setActiveKey(item.key);
    if (event.ctrlKey || event.metaKey) {
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
    } else {
      selection.toggle(item);
    }
  };

  const onItemDoubleClick = (item: DriveItem) => {
    if (narrow && item.kind === 'folder') return; // The tap logic handles it.
    open(item);
  };

  return { onItemClick, onItemDoubleClick };
}
