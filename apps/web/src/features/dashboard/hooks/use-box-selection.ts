import { useCallback, useEffect, useRef, useState, type PointerEvent as ReactPointerEvent, type RefObject } from 'react';
import { boxBetween, boxSelection, isBoxDrag, keysInBox, type Box } from '../box-selection';

interface BoxSelectionOptions {
  /** The area a drag may start in (the listing and the space around it). */
  areaRef: RefObject<HTMLElement | null>;
  selection: ReadonlySet<string>;
  /** Sets the selection to exactly these keys. */
  select: (keys: Set<string>) => void;
  /** A click on the background, not a drag: the selection is cleared unless Ctrl, Cmd or Shift was held. */
  onBackgroundClick: () => void;
  /** The box selected these many items (when it ends). */
  onSelected?: (count: number) => void;
  enabled: boolean;
}

/** Where a press on these does its own thing: no box starts there. */
const NOT_BACKGROUND = '[data-item-key], button, a, input, textarea, select, label, [role="menu"], [role="dialog"], [role="toolbar"]';

const pageBox = (rect: DOMRect): Box => ({
  left: rect.left + window.scrollX,
  top: rect.top + window.scrollY,
  right: rect.right + window.scrollX,
  bottom: rect.bottom + window.scrollY,
});

/**
 * A drag with the mouse on the listing's background draws a box (a rubber band) that selects
 * the items it touches, replacing the selection or, with Ctrl, Cmd or Shift held, adding to
 * it. Measured in page pixels, so the page may scroll during the drag. Only items rendered
 * (those in view and a few rows around them) can be touched, as only they can be seen.
 * Returns the box to draw (viewport pixels) and the area's pointerdown handler.
 */
export function useBoxSelection({ areaRef, selection, select, onBackgroundClick, onSelected, enabled }: BoxSelectionOptions) {
  const [box, setBox] = useState<Box | null>(null);
  const drag = useRef<{
    start: { x: number; y: number };
    before: ReadonlySet<string>;
    additive: boolean;
    moved: boolean;
    count: number;
  } | null>(null);
  const latest = useRef({ select, onBackgroundClick, onSelected });
  latest.current = { select, onBackgroundClick, onSelected };

  const onPointerDown = useCallback(
    (event: ReactPointerEvent<HTMLElement>) => {
      if (!enabled || event.button !== 0 || event.pointerType === 'touch') return;
      if ((event.target as Element).closest(NOT_BACKGROUND)) return;
      drag.current = {
        start: { x: event.clientX + window.scrollX, y: event.clientY + window.scrollY },
        before: selection,
        additive: event.ctrlKey || event.metaKey || event.shiftKey,
        moved: false,
        count: selection.size,
      };
      // No text selection while drawing.
      event.preventDefault();
    },
    [enabled, selection],
  );

  useEffect(() => {
    let last = { x: 0, y: 0 };
    const update = () => {
      const current = drag.current;
      const area = areaRef.current;
      if (!current || !area) return;
      const pageRect = boxBetween(current.start, { x: last.x + window.scrollX, y: last.y + window.scrollY });
      if (!current.moved && !isBoxDrag(pageRect)) return;
      current.moved = true;
      setBox({
        left: pageRect.left - window.scrollX,
        top: pageRect.top - window.scrollY,
        right: pageRect.right - window.scrollX,
        bottom: pageRect.bottom - window.scrollY,
      });
      const cells = [...area.querySelectorAll<HTMLElement>('[data-item-key]')].map((element) => ({
        key: element.dataset.itemKey as string,
        box: pageBox(element.getBoundingClientRect()),
      }));
      const selected = boxSelection(keysInBox(pageRect, cells), current.before, current.additive);
      current.count = selected.size;
      latest.current.select(selected);
    };
    const onMove = (event: PointerEvent) => {
      if (!drag.current) return;
      last = { x: event.clientX, y: event.clientY };
      update();
    };
    const onUp = () => {
      const current = drag.current;
      if (!current) return;
      drag.current = null;
      setBox(null);
      if (!current.moved) {
        if (!current.additive) latest.current.onBackgroundClick();
        return;
      }
      latest.current.onSelected?.(current.count);
    };
    const onScroll = () => update();
    document.addEventListener('pointermove', onMove);
    document.addEventListener('pointerup', onUp);
    document.addEventListener('pointercancel', onUp);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      document.removeEventListener('pointermove', onMove);
      document.removeEventListener('pointerup', onUp);
      document.removeEventListener('pointercancel', onUp);
      window.removeEventListener('scroll', onScroll);
    };
  }, [areaRef]);

  return { box, onPointerDown };
}
