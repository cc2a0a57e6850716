import type { KeyboardEvent } from 'react';

/** What a key pressed in an open menu does: move the focus to an item, close the menu, or nothing. */
export type MenuKeyAction = { kind: 'focus'; index: number; preventDefault: boolean } | { kind: 'close' | 'tab' } | null;

/**
 * The WAI-ARIA menu keys shared by the context menu and the dropdown menu: arrows wrap around,
 * Home/End go to the ends, a printable character jumps to the next item starting with it
 * (type-ahead), Escape closes, Tab leaves. Pure, so both menus behave the same.
 */
export function menuKeyAction(key: string, focusIndex: number, labels: readonly string[]): MenuKeyAction {
  const last = labels.length - 1;
  switch (key) {
    case 'ArrowDown':
      return { kind: 'focus', index: focusIndex >= last ? 0 : focusIndex + 1, preventDefault: true };
    case 'ArrowUp':
      return { kind: 'focus', index: focusIndex <= 0 ? last : focusIndex - 1, preventDefault: true };
    case 'Home':
      return { kind: 'focus', index: 0, preventDefault: true };
    case 'End':
      return { kind: 'focus', index: last, preventDefault: true };
    case 'Escape':
      return { kind: 'close' };
    case 'Tab':
      return { kind: 'tab' };
  }
  if (key.length !== 1 || !/\S/.test(key)) return null;
  const char = key.toLowerCase();
  for (let step = 1; step <= labels.length; step += 1) {
    const index = (focusIndex + step) % labels.length;
    // A typed character is not the page's to handle either way, so the default stays.
    if (labels[index]?.toLowerCase().startsWith(char)) return { kind: 'focus', index, preventDefault: false };
  }
  return null;
}

export interface MenuKeyTarget {
  labels: readonly string[];
  focusIndex: number;
  focus: (index: number) => void;
  /** Closes the menu, giving the focus back to where it came from. */
  close: () => void;
  /** Whether Tab's own move is stopped (a menu far from its opener in the DOM) or goes on from the opener. */
  stopTab: boolean;
}

/** Applies menuKeyAction's answer to a menu's keydown event. */
export function handleMenuKey(event: KeyboardEvent<HTMLElement>, menu: MenuKeyTarget): void {
  const action = menuKeyAction(event.key, menu.focusIndex, menu.labels);
  if (action === null) return;
  if (action.kind === 'focus') {
    if (action.preventDefault) event.preventDefault();
    menu.focus(action.index);
    return;
  }
  if (action.kind === 'close' || menu.stopTab) event.preventDefault();
  menu.close();
}
