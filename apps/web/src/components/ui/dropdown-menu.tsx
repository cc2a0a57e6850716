import { Check } from 'lucide-react';
import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ComponentType,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { createPortal } from 'react-dom';
import { Link } from 'react-router';
import { cn } from '../../lib/cn';
import { handleMenuKey } from './menu-keys';

/** Where the open menu's box goes (CSS top and left of a fixed box). */
type MenuPosition = { top: number; left: number };

/** The landmarks (and dialogs) a menu is rendered into: the nearest around its button. */
const MENU_HOSTS = 'main, header, footer, nav, aside, [role="dialog"], [role="alertdialog"]';

/** Between the button and the menu under it. */
const MENU_GAP_PX = 8;
/** Where the menu is measured before it is placed. */
const UNPLACED: MenuPosition = { top: 0, left: 0 };

export interface DropdownMenuItem {
  id: string;
  label: string;
  icon?: ComponentType<{ className?: string; 'aria-hidden'?: boolean | 'true' }>;
  /** A route to go to; otherwise `onSelect` runs. */
  to?: string;
  onSelect?: () => void;
  tone?: 'default' | 'danger';
  /** Draws a separator above this item. */
  separatorBefore?: boolean;
  /** One of a set of choices (a menuitemradio): whether it is the chosen one, shown by a check. */
  checked?: boolean;
}

interface DropdownMenuProps {
  /** Accessible name of the trigger button and of the menu. */
  label: string;
  /** What the trigger shows (avatar, name, chevron…). */
  trigger: ReactNode;
  items: DropdownMenuItem[];
  align?: 'start' | 'end';
  triggerClassName?: string;
  /** -1 keeps the trigger out of the Tab order (inside a grid with a roving tab stop). */
  triggerTabIndex?: number;
}

/**
 * A menu button following the WAI-ARIA menu pattern: Enter, Space or ArrowDown open it on
 * the first item, ArrowUp on the last; arrows, Home, End and first letters move; Escape
 * closes and returns focus to the button; Tab or a click outside closes it.
 *
 * The open menu is rendered at the end of the landmark around its button (a portal) and
 * placed under it: inside a grid cell its items would count as the cell's own text, and
 * no container's overflow or stacking clips it.
 */
export function DropdownMenu({ label, trigger, items, align = 'end', triggerClassName, triggerTabIndex }: DropdownMenuProps) {
  const [open, setOpen] = useState(false);
  const [focusIndex, setFocusIndex] = useState(0);
  const [position, setPosition] = useState<MenuPosition | null>(null);
  const [host, setHost] = useState<Element | null>(null);
  const applied = useRef<MenuPosition>(UNPLACED);
  const containerRef = useRef<HTMLDivElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const itemRefs = useRef<Array<HTMLElement | null>>([]);
  const menuId = useId();

  const openAt = useCallback((index: number) => {
    setFocusIndex(index);
    setHost(triggerRef.current?.closest(MENU_HOSTS) ?? document.body);
    setOpen(true);
  }, []);

  const close = useCallback((returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) triggerRef.current?.focus();
  }, []);

  // Under the button (over it when only there it fits) before the first paint, and kept
  // there while the page scrolls or resizes.
  useLayoutEffect(() => {
    if (!open) {
      applied.current = UNPLACED;
      setPosition(null);
      return;
    }
    const place = () => {
      const trigger = triggerRef.current?.getBoundingClientRect();
      const menu = menuRef.current?.getBoundingClientRect();
      if (!trigger || !menu) return;
      // Where top 0, left 0 lands: the viewport's corner, or that of an ancestor holding
      // fixed boxes (a backdrop filter or a transform makes one).
      const originTop = menu.top - applied.current.top;
      const originLeft = menu.left - applied.current.left;
      const below = trigger.bottom + MENU_GAP_PX;
      const above = trigger.top - MENU_GAP_PX - menu.height;
      const top = below + menu.height > window.innerHeight && above >= 0 ? above : below;
      const left = Math.max(MENU_GAP_PX, align === 'end' ? trigger.right - menu.width : trigger.left);
      applied.current = { top: top - originTop, left: left - originLeft };
      setPosition(applied.current);
    };
    place();
    window.addEventListener('resize', place);
    window.addEventListener('scroll', place, { capture: true, passive: true });
    return () => {
      window.removeEventListener('resize', place);
      window.removeEventListener('scroll', place, { capture: true });
    };
  }, [open, align]);

  // Move focus to the active item whenever it changes while open. In the commit itself: a
  // passive effect of a hover could still be pending when a busy browser delivers the click
  // on that item, and would then pull focus back into the menu the click closes, after the
  // button got it back (the dialog the item opens would then return focus to <body>).
  useLayoutEffect(() => {
    if (open && position) itemRefs.current[focusIndex]?.focus({ preventScroll: true });
  }, [open, position, focusIndex]);

  // A pointer press outside closes the menu without stealing focus back.
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!containerRef.current?.contains(target) && !menuRef.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const onTriggerKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      openAt(0);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(items.length - 1);
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) =>
    // Tab puts the focus back on the button first, so Tab goes on from there and not from the end of the page.
    handleMenuKey(event, {
      labels: items.map((item) => item.label),
      focusIndex,
      focus: setFocusIndex,
      close: () => close(true),
      stopTab: false,
    });

  const itemClass = (item: DropdownMenuItem) =>
    cn(
      // Keyboard focus gets a ring, not only the tint: a 1.1:1 background change is no visible focus (WCAG 2.4.7).
      'flex w-full items-center gap-3 rounded-[calc(var(--radius-control)-2px)] px-3 py-2 text-left text-sm font-medium outline-2 outline-transparent -outline-offset-2 transition-colors focus-visible:outline-brand-500',
      item.tone === 'danger'
        ? 'text-danger hover:bg-danger-soft focus:bg-danger-soft'
        : 'text-ink hover:bg-surface-muted focus:bg-surface-muted',
    );

  return (
    <div ref={containerRef} className="relative">
      <button
        ref={triggerRef}
        type="button"
        aria-label={label}
        tabIndex={triggerTabIndex}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? close(false) : openAt(0))}
        onKeyDown={onTriggerKeyDown}
        className={cn('focus-ring', triggerClassName)}
      >
        {trigger}
      </button>

      {open &&
        host &&
        createPortal(
          <div
            ref={menuRef}
            id={menuId}
            role="menu"
            aria-label={label}
            onKeyDown={onMenuKeyDown}
            // Measured unseen first, then placed.
            style={position ?? { ...UNPLACED, visibility: 'hidden' }}
            className="fixed z-50 min-w-56 origin-top rounded-card border border-line bg-surface p-1.5 shadow-popover"
          >
            {items.map((item, index) => {
              const Icon = item.icon;
              const content = (
                <>
                  {Icon && <Icon aria-hidden="true" className="size-4 shrink-0 opacity-80" />}
                  <span>{item.label}</span>
                  {item.checked && <Check aria-hidden="true" className="ml-auto size-4 shrink-0 text-brand-600 dark:text-brand-300" />}
                </>
              );
              const common = {
                ref: (element: HTMLElement | null) => {
                  itemRefs.current[index] = element;
                },
                role: item.checked === undefined ? 'menuitem' : 'menuitemradio',
                'aria-checked': item.checked,
                tabIndex: -1,
                className: itemClass(item),
                onMouseEnter: () => setFocusIndex(index),
              } as const;
              return (
                <div key={item.id} role="none">
                  {item.separatorBefore && <div role="separator" className="-mx-1.5 my-1.5 h-px bg-line" />}
                  {item.to ? (
                    <Link {...common} to={item.to} onClick={() => close(true)}>
                      {content}
                    </Link>
                  ) : (
                    <button
                      {...common}
                      type="button"
                      onClick={() => {
                        close(true);
                        item.onSelect?.();
                      }}
                    >
                      {content}
                    </button>
                  )}
                </div>
              );
            })}
          </div>,
          host,
        )}
    </div>
  );
}
