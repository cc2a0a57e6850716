import { X } from 'lucide-react';
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';
import { focusableIn, trapTab } from './focus-trap';
import { useContainedFocus } from './use-contained-focus';

export interface ModalProps {
  open: boolean;
  onClose: () => void;
  /** The dialog's heading and accessible name. */
  title: string;
  /** A line under the title, also the dialog's accessible description. */
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons at the bottom, right-aligned (Cancel first, the main action last). */
  footer?: ReactNode;
  /** Where focus goes on open; the first focusable element of the body otherwise. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  size?: 'sm' | 'md' | 'lg';
  /** A decorative icon beside the title. */
  icon?: ReactNode;
  /** Refuses Escape and backdrop clicks while something runs (a request in flight). */
  busy?: boolean;
}

const widths = { sm: 'max-w-sm', md: 'max-w-md', lg: 'max-w-xl' } as const;

/**
 * A modal dialog (WAI-ARIA dialog pattern): rendered over the page in a portal, focus moves
 * into it and is trapped there (Tab and Shift+Tab cycle), Escape or a click on the
 * backdrop closes it, and focus returns to the element that opened it.
 */
export function Modal({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  initialFocusRef,
  size = 'md',
  icon,
  busy = false,
}: ModalProps) {
  const { t } = useTranslation();
  const dialogRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  // The latest onClose without re-running the focus effect when a parent re-renders.
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);
  useContainedFocus(dialogRef, open, () => {
    if (!busy) onCloseRef.current();
  });

  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const dialog = dialogRef.current;
    const target = initialFocusRef?.current ?? (dialog ? focusableIn(dialog)[0] : undefined) ?? dialog;
    target?.focus();
    // The page behind must not scroll under the dialog.
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
      // The opener may have gone (a deleted item's tile); then focus stays where it lands.
      if (opener?.isConnected) opener.focus();
    };
  }, [open, initialFocusRef]);

  if (!open) return null;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Keys inside the dialog never reach the page's own shortcuts.
    event.stopPropagation();
    if (event.key === 'Escape') {
      event.preventDefault();
      if (!busy) onCloseRef.current();
      return;
    }
    if (dialogRef.current) trapTab(event, dialogRef.current);
  };

  return createPortal(
    <div className="fixed inset-0 z-[60] flex items-end justify-center p-0 sm:items-center sm:p-4">
      <div
        aria-hidden="true"
        className="cv-fade-in absolute inset-0 bg-slate-950/50 backdrop-blur-[2px]"
        onMouseDown={() => {
          if (!busy) onCloseRef.current();
        }}
      />
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        onKeyDown={onKeyDown}
        className={cn(
          'cv-pop-in relative flex max-h-[92dvh] w-full flex-col overflow-hidden rounded-t-card border border-line bg-surface shadow-popover outline-none sm:rounded-card',
          widths[size],
        )}
      >
        <div className="flex items-start gap-3 px-5 pt-5 sm:px-6 sm:pt-6">
          {icon && <div className="shrink-0">{icon}</div>}
          <div className="min-w-0 flex-1">
            <h2 id={titleId} className="text-lg font-semibold tracking-tight text-ink">
              {title}
            </h2>
            {description && (
              <div id={descriptionId} className="mt-1 text-sm text-ink-muted">
                {description}
              </div>
            )}
          </div>
          <button
            type="button"
            onClick={() => onCloseRef.current()}
            disabled={busy}
            aria-label={t('ui.close')}
            className="focus-ring -mr-2 -mt-1 inline-flex size-9 shrink-0 items-center justify-center rounded-control text-ink-subtle transition-colors hover:bg-surface-muted hover:text-ink disabled:opacity-50"
          >
            <X aria-hidden="true" className="size-5" />
          </button>
        </div>
        {children && <div className="min-h-0 overflow-y-auto px-5 pt-4 sm:px-6">{children}</div>}
        {footer ? (
          <div className="mt-5 flex flex-col-reverse gap-2 border-t border-line bg-surface-muted/60 px-5 py-4 sm:flex-row sm:justify-end sm:px-6">
            {footer}
          </div>
        ) : (
          <div className="h-5 sm:h-6" />
        )}
      </div>
    </div>,
    document.body,
  );
}
