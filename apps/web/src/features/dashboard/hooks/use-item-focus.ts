import { useCallback, useEffect, useRef } from 'react';
import type { DriveItem } from '../items';
import type { VirtualItemRows } from './use-virtual-item-rows';

interface ItemFocusOptions {
  items: DriveItem[];
  rows: Pick<VirtualItemRows, 'containerRef' | 'columns' | 'virtualizer' | 'width' | 'shown'>;
  activeKey: string | null;
  /** Scroll to and focus the active item once shown (arriving from a search hit). */
  revealActive?: boolean;
  /** Focus this item (scrolled into view): the viewer closed on it. A new object asks again. */
  focusRequest?: { key: string } | null;
}

/**
 * Moving the focus to an item of a virtual listing, whose row may not be rendered yet:
 * scrolled into view, then focused once its row is there. Answers a reveal (once) and each
 * new focus request.
 */
export function useItemFocus({ items, rows, activeKey, revealActive, focusRequest }: ItemFocusOptions) {
  const { containerRef, columns, virtualizer, width, shown } = rows;
  const indexOfKey = useCallback((key: string | null) => (key ? items.findIndex((item) => item.key === key) : -1), [items]);

  /** Scrolls the item into view and focuses it once its row is rendered. */
  const focusIndex = useCallback(
    (index: number) => {
      const item = items[index];
      if (!item) return;
      virtualizer.scrollToIndex(Math.floor(index / columns), { align: 'auto' });
      let attempts = 0;
      const tryFocus = () => {
        const element = containerRef.current?.querySelector<HTMLElement>(`[data-item-key="${CSS.escape(item.key)}"]`);
        if (element) element.focus({ preventScroll: true });
        else if ((attempts += 1) < 10) requestAnimationFrame(tryFocus);
      };
      // At once when the item is on screen (the next key press must land on it), else
      // once its row has rendered.
      tryFocus();
    },
    [items, columns, virtualizer, containerRef],
  );

  // Arriving from "Show in folder": bring the found file into view, once.
  const revealed = useRef(false);
  useEffect(() => {
    if (!revealActive || revealed.current || width === 0 || !shown) return;
    revealed.current = true;
    const index = indexOfKey(activeKey);
    if (index >= 0) focusIndex(index);
  }, [revealActive, activeKey, width, shown, indexOfKey, focusIndex]);

  useEffect(() => {
    if (!focusRequest) return;
    const index = indexOfKey(focusRequest.key);
    if (index >= 0) focusIndex(index);
    // Only a new request focuses: a changed listing must not pull the focus back.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusRequest]);

  return { indexOfKey, focusIndex };
}
