/**
 * What a key pressed anywhere on the file manager's page asks for. The listing's own keys are
 * item-keyboard.ts's; F2 and Escape come here when no item has the focus.
 */
export type PageCommand = 'select-all' | 'copy' | 'cut' | 'paste' | 'help' | 'focus-search' | 'context-menu' | 'rename' | 'clear-selection';

export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/**
 * The page command of a key press: Ctrl or Cmd with A, C, X or V; "?" for the shortcuts;
 * "/" for the search; the Menu key or Shift+F10 for the context menu; F2 renames; Escape
 * clears the selection. null while the person
 * types in a field (`typing`), whose own select-all, copy and paste win, and for any other key.
 */
export function pageKeyCommand(press: KeyPress, typing: boolean): PageCommand | null {
  if (typing) return null;
  if (press.key === 'ContextMenu' || (press.shiftKey && press.key === 'F10')) return 'context-menu';
  const modifier = press.ctrlKey || press.metaKey;
  if (modifier && !press.altKey && !press.shiftKey) {
    const command = ({ a: 'select-all', c: 'copy', x: 'cut', v: 'paste' } as const)[press.key.toLowerCase()];
    return command ?? null;
  }
  if (modifier || press.altKey) return null;
  if (press.key === 'F2' && !press.shiftKey) return 'rename';
  if (press.key === 'Escape') return 'clear-selection';
  if (press.key === '?') return 'help';
  if (press.key === '/') return 'focus-search';
  return null;
}

/** Whether an element takes typed text: then the page's shortcuts stay out of its way. */
export function isTextField(element: Element | null): boolean {
  if (!element) return false;
  if (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return true;
  if (element instanceof HTMLInputElement)
    return !['button', 'checkbox', 'radio', 'submit', 'reset', 'file', 'range'].includes(element.type);
  return element instanceof HTMLElement && element.isContentEditable;
}

/** One line of the Keyboard shortcuts dialog: its keys (each alternative a list pressed together) and its text's id. */
export interface ShortcutLine {
  id: string;
  keys: string[][];
}

/** Every shortcut of the file manager, as the dialog lists them; `mod` is "Ctrl", or "⌘" on a Mac. */
export function shortcutLines(mod: string): ShortcutLine[] {
  return [
    { id: 'move', keys: [['↑'], ['↓'], ['←'], ['→']] },
    { id: 'open', keys: [['Enter']] },
    { id: 'toggle', keys: [['Space'], [mod, 'Click']] },
    { id: 'range', keys: [['Shift', 'Click']] },
    { id: 'selectAll', keys: [[mod, 'A']] },
    { id: 'clear', keys: [['Esc']] },
    { id: 'rename', keys: [['F2']] },
    { id: 'delete', keys: [['Delete']] },
    { id: 'copy', keys: [[mod, 'C']] },
    { id: 'cut', keys: [[mod, 'X']] },
    { id: 'paste', keys: [[mod, 'V']] },
    { id: 'menu', keys: [['Shift', 'F10'], ['Menu']] },
    { id: 'search', keys: [['/']] },
    { id: 'help', keys: [['?']] },
  ];
}
