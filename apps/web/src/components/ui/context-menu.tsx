import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { cn } from '../../lib/cn';
import type { DropdownMenuItem } from './dropdown-menu';
import { handleMenuKey } from './menu-keys';

/** Kept between the menu and the viewport's edges. */
const EDGE_PX = 8;

export interface ContextMenuProps {
  /** Accessible name of the menu. */
  label: string;
  items: DropdownMenuItem[];
  /** Where it opens, in viewport pixels (the pointer, or beside the item the keys opened it on). */
  at: { x: number; y: number };
  /** Closed by Escape, Tab, a choice or a press outside; `returnFocus` for the first three. */
  onClose: (returnFocus: boolean) => void;
}

/**
 * A menu opened at a point (right-click, the Menu key, Shift+F10), following the WAI-ARIA menu
 * pattern as DropdownMenu does: it opens on its first item; arrows, Home, End and first letters
 * move; Enter or Space choose; Escape and Tab close it. It is placed at `at`, moved left or up
 * as far as it takes to stay inside the viewport, and rendered at the end of <main> (a portal),
 * so no container clips it and no grid cell counts its items as its own text.
 */
export function ContextMenu({ label, items, at, onClose }: ContextMenuProps) {
  const menuRef = useRef<HTMLDivElement>(null);
  const itemRefs = useRef<Array<HTMLButtonElement | null>>([]);
  const [focusIndex, setFocusIndex] = useState(0);
  const [position, setPosition] = useState<{ top: number; left: number } | null>(null);
  const [host] = useState(() => document.querySelector('main') ?? document.body);

  useLayoutEffect(() => {
    const menu = menuRef.current?.getBoundingClientRect();
    if (!menu) return;
    const left = Math.max(EDGE_PX, Math.min(at.x, window.innerWidth - menu.width - EDGE_PX));
    const top = Math.max(EDGE_PX, Math.min(at.y, window.innerHeight - menu.height - EDGE_PX));
    setPosition({ top, left });
  }, [at.x, at.y]);

  // Once placed, and as the arrows move: not again when it is placed anew.
  const placed = position !== null;
  useLayoutEffect(() => {
    if (placed) itemRefs.current[focusIndex]?.focus({ preventScroll: true });
  }, [placed, focusIndex]);

  const close = useCallback((returnFocus: boolean) => onClose(returnFocus), [onClose]);

  // A press outside closes it without taking the focus back; so does scrolling or resizing,
  // which would leave it beside nothing.
  useEffect(() => {
    const onPointerDown = (event: PointerEvent) => {
      if (!menuRef.current?.contains(event.target as Node)) close(false);
    };
    // A scroll still pending when the menu opened (the page brought the item into view just
    // before the click) arrives in the next frame: only what comes after that closes it.
    let armed = false;
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => {
        armed = true;
      });
    });
    const onMoved = () => {
      if (armed) close(false);
    };
    document.addEventListener('pointerdown', onPointerDown, true);
    window.addEventListener('resize', onMoved);
    window.addEventListener('scroll', onMoved, { capture: true, passive: true });
    return () => {
      cancelAnimationFrame(frame);
      document.removeEventListener('pointerdown', onPointerDown, true);
      window.removeEventListener('resize', onMoved);
      window.removeEventListener('scroll', onMoved, { capture: true });
    };
  }, [close]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // The page's own keys (Ctrl+A, "?", Delete…) do nothing while the menu is open.
    event.stopPropagation();
    // Tab stays put: the menu is portalled to the end of the page, so the focus goes back to the item first.
    handleMenuKey(event, {
      labels: items.map((item) => item.label),
      focusIndex,
      focus: setFocusIndex,
      close: () => close(true),
      stopTab: true,
    });
  };

  return createPortal(
    <div
      ref={menuRef}
      role="menu"
      aria-label={label}
      onKeyDown={onKeyDown}
      onContextMenu={(event) => event.preventDefault()}
      style={position ?? { top: 0, left: 0, visibility: 'hidden' }}
      className="fixed z-50 min-w-56 rounded-card border border-line bg-surface p-1.5 shadow-popover"
    >
      {items.map((item, index) => {
        const Icon = item.icon;
        return (
          <div key={item.id} role="none">
            {item.separatorBefore && <div role="separator" className="-mx-1.5 my-1.5 h-px bg-line" />}
            <button
              ref={(element) => {
                itemRefs.current[index] = element;
              }}
              type="button"
              role="menuitem"
              tabIndex={-1}
              // A real move of the pointer, not the one a browser fakes when the menu appears under a
              // still pointer: a menu opened by keys keeps its focus where the keys put it.
              onPointerMove={(event) => {
                if ((event.movementX !== 0 || event.movementY !== 0) && focusIndex !== index) setFocusIndex(index);
              }}
              onClick={() => {
                // Focus goes back first: a dialog the choice opens then returns it there.
                close(true);
                item.onSelect?.();
              }}
              className={cn(
                'flex w-full items-center gap-3 rounded-[calc(var(--radius-control)-2px)] px-3 py-2 text-left text-sm font-medium outline-2 outline-transparent -outline-offset-2 transition-colors focus-visible:outline-brand-500',
                item.tone === 'danger'
                  ? 'text-danger hover:bg-danger-soft focus:bg-danger-soft'
                  : 'text-ink hover:bg-surface-muted focus:bg-surface-muted',
              )}
            >
              {Icon && <Icon aria-hidden="true" className="size-4 shrink-0 opacity-80" />}
              <span>{item.label}</span>
            </button>
          </div>
        );
      })}
    </div>,
    host,
  );
}
