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

/** Between the button and the menu under it. */
const MENU_GAP_PX = 8;

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

/** Where the open menu sits in the viewport: under its button, at one of its edges. */
type MenuPosition = { top: number } & ({ left: number } | { right: number });

/**
 * A menu button following the WAI-ARIA menu pattern: Enter, Space or ArrowDown open it on
 * the first item, ArrowUp on the last; arrows, Home, End and first letters move; Escape
 * closes and returns focus to the button; Tab or a click outside closes it.
 *
 * The open menu is rendered at the end of the page (a portal) and placed under its
 * button: inside a grid cell its items would count as the cell's own text, and no
 * container's overflow or stacking clips it.
 */
export function DropdownMenu({ label, trigger, items, align = 'end', triggerClassName, triggerTabIndex }: DropdownMenuProps) {
  const [open, setOpen] = useState(false);
  const [focusIndex, setFocusIndex] = useState(0);
  const [position, setPosition] = useState<MenuPosition | null>(null);
  const containerRef = useRef<HTMLDivElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const itemRefs = useRef<Array<HTMLElement | null>>([]);
  const menuId = useId();

  const openAt = useCallback((index: number) => {
    setFocusIndex(index);
    setOpen(true);
  }, []);

  const close = useCallback((returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) triggerRef.current?.focus();
  }, []);

  // Under the button before the first paint, and kept there while the page scrolls or resizes.
  useLayoutEffect(() => {
    if (!open) {
      setPosition(null);
      return;
    }
    const place = () => {
      const rect = triggerRef.current?.getBoundingClientRect();
      if (!rect) return;
      const top = rect.bottom + MENU_GAP_PX;
      setPosition(align === 'end' ? { top, right: document.documentElement.clientWidth - rect.right } : { top, left: rect.left });
    };
    place();
    window.addEventListener('resize', place);
    window.addEventListener('scroll', place, { capture: true, passive: true });
    return () => {
      window.removeEventListener('resize', place);
      window.removeEventListener('scroll', place, { capture: true });
    };
  }, [open, align]);

  // Move focus to the active item whenever it changes while open.
  useEffect(() => {
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

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const last = items.length - 1;
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        setFocusIndex((index) => (index >= last ? 0 : index + 1));
        break;
      case 'ArrowUp':
        event.preventDefault();
        setFocusIndex((index) => (index <= 0 ? last : index - 1));
        break;
      case 'Home':
        event.preventDefault();
        setFocusIndex(0);
        break;
      case 'End':
        event.preventDefault();
        setFocusIndex(last);
        break;
      case 'Escape':
        event.preventDefault();
        close(true);
        break;
      case 'Tab':
        // Back on the button first, so Tab goes on from there and not from the end of the page.
        close(true);
        break;
      default:
        if (event.key.length === 1 && /\S/.test(event.key)) {
          // Type-ahead: the next item starting with the typed character.
          const char = event.key.toLowerCase();
          for (let step = 1; step <= items.length; step += 1) {
            const index = (focusIndex + step) % items.length;
            if (items[index]?.label.toLowerCase().startsWith(char)) {
              setFocusIndex(index);
              break;
            }
          }
        }
    }
  };

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
        position &&
        createPortal(
          <div
            ref={menuRef}
            id={menuId}
            role="menu"
            aria-label={label}
            onKeyDown={onMenuKeyDown}
            style={position}
            className="fixed z-50 min-w-56 origin-top rounded-card border border-line bg-surface p-1.5 shadow-popover"
          >
            {items.map((item, index) => {
              const Icon = item.icon;
              const content = (
                <>
                  {Icon && <Icon aria-hidden="true" className="size-4 shrink-0 opacity-80" />}
                  <span>{item.label}</span>
                </>
              );
              const common = {
                ref: (element: HTMLElement | null) => {
                  itemRefs.current[index] = element;
                },
                role: 'menuitem',
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
          document.body,
        )}
    </div>
  );
}
