import { useEffect, useRef, type RefObject } from 'react';
import { isTextField, pageKeyCommand, type PageCommand } from '../page-shortcuts';

/** Commands that act on the listing: only from inside the file manager or with nothing focused. */
const LISTING_COMMANDS: ReadonlySet<PageCommand> = new Set([
  'select-all',
  'copy',
  'cut',
  'paste',
  'rename',
  'clear-selection',
  'context-menu',
]);

/**
 * The page's keys (page-shortcuts.ts) while `enabled` (no dialog, no viewer): each command is
 * handed to `onCommand` with the key's event, whose default it prevents. Keys an item or a
 * menu already handled, and keys typed in a field, are left alone; the listing's commands
 * run only when the focus is in `areaRef` or nowhere (the page itself).
 */
export function usePageShortcuts(areaRef: RefObject<HTMLElement | null>, enabled: boolean, onCommand: (command: PageCommand) => void) {
  const latest = useRef(onCommand);
  useEffect(() => {
    latest.current = onCommand;
  });

  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest('[role="menu"], [role="dialog"], [role="alertdialog"]')) return;
      const command = pageKeyCommand(event, isTextField(target));
      if (!command) return;
      const onPage = !target || target === document.body || areaRef.current?.contains(target);
      if (LISTING_COMMANDS.has(command) && !onPage) return;
      // Text the person selected on the page is theirs to copy.
      if ((command === 'copy' || command === 'cut') && (window.getSelection()?.toString() ?? '') !== '') return;
      if (command !== 'clear-selection') event.preventDefault();
      latest.current(command);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [enabled, areaRef]);
}
