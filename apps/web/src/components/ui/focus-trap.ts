import type { KeyboardEvent } from 'react';

const FOCUSABLE =
  'a[href], button, input:not([type="hidden"]), select, textarea, video[controls], audio[controls], [tabindex], [contenteditable="true"]';

/**
 * Whether the element is drawn. `checkVisibility` where the browser has it; otherwise (jsdom,
 * older engines) the `hidden` attribute and inline `display: none` up the tree.
 */
function isRendered(element: HTMLElement): boolean {
  if (typeof element.checkVisibility === 'function') {
    return element.checkVisibility({ visibilityProperty: true });
  }
  for (let node: HTMLElement | null = element; node; node = node.parentElement) {
    if (node.hidden || node.style.display === 'none') return false;
  }
  return true;
}

/**
 * The elements Tab can reach inside `container`, in order: not disabled, not taken out of the
 * tab order (tabindex="-1", like the dropzone's file input), not inert or hidden from
 * assistive technology, and drawn on screen.
 */
export function focusableIn(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (element) =>
      // An explicit negative tabindex; a <video controls> reports tabIndex -1 yet Tab stops on it.
      !(Number(element.getAttribute('tabindex')) < 0) &&
      !element.matches(':disabled') &&
      !element.closest('[inert], [aria-hidden="true"]') &&
      isRendered(element),
  );
}

/** Keeps Tab and Shift+Tab cycling inside a dialog (WAI-ARIA dialog pattern). */
export function trapTab(event: KeyboardEvent, container: HTMLElement): void {
  if (event.key !== 'Tab') return;
  const focusable = focusableIn(container);
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) {
    event.preventDefault();
    return;
  }
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === container || !container.contains(active))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !container.contains(active))) {
    event.preventDefault();
    first.focus();
  }
}
