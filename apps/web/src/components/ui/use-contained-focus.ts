import { useEffect, useRef, type RefObject } from 'react';
import { focusableIn } from './focus-trap';

/** The open dialogs, oldest first: only the last one keeps focus and answers Escape. */
const openDialogs: Array<RefObject<HTMLElement | null>> = [];

/**
 * Keeps focus inside an open dialog whatever happens around its own Tab handling: focus that
 * lands outside (a click on the page, a browser shortcut) comes back, and Escape pressed
 * while focus is outside still closes it. The dialog's own key handler covers keys inside.
 */
export function useContainedFocus(dialogRef: RefObject<HTMLElement | null>, open: boolean, onEscape: () => void): void {
  const onEscapeRef = useRef(onEscape);
  useEffect(() => {
    onEscapeRef.current = onEscape;
  }, [onEscape]);

  useEffect(() => {
    if (!open) return;
    openDialogs.push(dialogRef);
    const isTopmost = () => openDialogs[openDialogs.length - 1] === dialogRef;
    const onFocusIn = (event: FocusEvent) => {
      const dialog = dialogRef.current;
      if (!dialog || !isTopmost() || dialog.contains(event.target as Node)) return;
      (focusableIn(dialog)[0] ?? dialog).focus();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      const dialog = dialogRef.current;
      if (event.key !== 'Escape' || !dialog || !isTopmost() || dialog.contains(event.target as Node)) return;
      event.preventDefault();
      onEscapeRef.current();
    };
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('keydown', onKeyDown);
      openDialogs.splice(openDialogs.indexOf(dialogRef), 1);
    };
  }, [open, dialogRef]);
}
