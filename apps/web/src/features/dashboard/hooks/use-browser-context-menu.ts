import { useCallback, useState } from 'react';
import type { DriveItem } from '../items';

/** The open context menu: an item's (acting on `count` items) or the folder's background's, at a point of the viewport. */
export type ContextMenuTarget =
  { kind: 'item'; item: DriveItem; count: number; at: { x: number; y: number } } | { kind: 'background'; at: { x: number; y: number } };

/**
 * Which context menu is open and where the focus goes back when it closes (what had it when
 * the menu opened). The last item's target outlives its menu (`open` false) so that a dialog
 * its menu opened (a file's version history) stays mounted.
 */
export function useBrowserContextMenu() {
  const [target, setTarget] = useState<ContextMenuTarget | null>(null);
  const [open, setOpen] = useState(false);
  const [opener, setOpener] = useState<HTMLElement | null>(null);

  const show = useCallback(
    (next: ContextMenuTarget) => {
      // The Menu key or Shift+F10 can be followed by the browser's own contextmenu event for the
      // same item: the menu already open for it stays as it is.
      if (open && target && sameTarget(target, next)) return;
      setOpener(document.activeElement instanceof HTMLElement ? document.activeElement : null);
      setTarget(next);
      setOpen(true);
    },
    [open, target],
  );

  const close = useCallback(
    (returnFocus: boolean) => {
      setOpen(false);
      if (returnFocus && opener?.isConnected) opener.focus({ preventScroll: true });
    },
    [opener],
  );

  return { target, open, show, close };
}

const sameTarget = (a: ContextMenuTarget, b: ContextMenuTarget) =>
  a.kind === 'background' ? b.kind === 'background' : b.kind === 'item' && a.item.key === b.item.key;

/** Beside an element (an item the keys opened the menu on): by its left edge, half-way down. */
export function besideElement(element: Element): { x: number; y: number } {
  const rect = element.getBoundingClientRect();
  return { x: rect.left + Math.min(24, rect.width / 2), y: rect.top + rect.height / 2 };
}
