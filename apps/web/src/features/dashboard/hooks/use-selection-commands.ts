import { useEffect, useState, type MouseEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { announce } from '../../../components/ui/live-region';
import type { ItemAction } from '../components/item-menu';
import type { SelectionBarAction } from '../components/selection-bar';
import type { DriveItem } from '../items';
import type { PageCommand } from '../page-shortcuts';
import { besideElement, type ContextMenuTarget } from './use-browser-context-menu';
import type { BrowserDialog } from './use-item-actions-dialogs';
import type { ItemSelection } from './use-item-selection';
import { usePageShortcuts } from './use-page-shortcuts';

/** Where the background's menu opens when a key opened it: inside the listing's top corner. */
const KEYBOARD_MENU_INSET_PX = 24;

interface SelectionCommandOptions {
  selection: ItemSelection;
  /** The items shown, in order (a search filters them). */
  visible: DriveItem[];
  /** The file manager's section: the listing's keys work when the focus is in it. */
  sectionRef: RefObject<HTMLElement | null>;
  /** The listing and the space around it: the background's menu and box start there. */
  areaRef: RefObject<HTMLElement | null>;
  /** No dialog, no viewer, no menu over the page: its keys are live. */
  keysEnabled: boolean;
  runAction: (action: ItemAction, item: DriveItem) => void;
  download: (items: DriveItem[]) => void;
  openDialog: (dialog: BrowserDialog) => void;
  showMenu: (target: ContextMenuTarget) => void;
  clipboard: { put: (mode: 'copy' | 'cut', items: DriveItem[]) => void; paste: () => void };
}

/**
 * What the selection does beyond clicks: the page's keys (Ctrl/Cmd+A, C, X, V, F2, Escape, "?",
 * "/", the Menu key and Shift+F10), the context menus' opening, touch selecting after a long
 * press, the selection bar's actions, and the screen reader's word on each bulk change.
 */
export function useSelectionCommands(options: SelectionCommandOptions) {
  const { selection, visible, sectionRef, areaRef, runAction, openDialog, showMenu, clipboard } = options;
  const { t } = useTranslation();
  const [touchSelecting, setTouchSelecting] = useState(false);
  const count = selection.selection.size;
  // Selecting by touch ends with the selection.
  useEffect(() => {
    if (count === 0) setTouchSelecting(false);
  }, [count]);

  const announceCount = (size: number) => announce(t('dashboard.selection.announce', { count: size }));
  const clear = () => {
    if (selection.selection.size === 0) return;
    selection.clear();
    announce(t('dashboard.selection.cleared'));
  };

  /** An item's menu: it acts on the selection when the item is part of it, else on the item, selected first. */
  const openItemMenu = (item: DriveItem, at: { x: number; y: number }) => {
    const inSelection = selection.selection.has(item.key);
    if (!inSelection) selection.selectOnly(item.key);
    selection.setActiveKey(item.key);
    showMenu({ kind: 'item', item, count: inSelection ? selection.selection.size : 1, at });
  };

  const openBackgroundMenu = (at: { x: number; y: number }) => showMenu({ kind: 'background', at });

  const onCommand = (command: PageCommand) => {
    switch (command) {
      case 'select-all':
        selection.selectKeys(visible.map((item) => item.key));
        announceCount(visible.length);
        return;
      case 'clear-selection':
        clear();
        return;
      case 'copy':
      case 'cut':
        clipboard.put(command, selection.selected());
        return;
      case 'paste':
        clipboard.paste();
        return;
      case 'rename': {
        const [only, ...others] = selection.selected();
        if (only && others.length === 0) runAction('rename', only);
        return;
      }
      case 'help':
        openDialog({ type: 'shortcuts' });
        return;
      case 'focus-search':
        sectionRef.current?.querySelector<HTMLInputElement>('input[type="search"]')?.focus();
        return;
      case 'context-menu': {
        const focused = document.activeElement?.closest<HTMLElement>('[data-item-key]');
        const item = focused && visible.find((entry) => entry.key === focused.dataset.itemKey);
        if (focused && item) {
          openItemMenu(item, besideElement(focused));
          return;
        }
        const area = areaRef.current?.getBoundingClientRect();
        openBackgroundMenu({
          x: (area?.left ?? 0) + KEYBOARD_MENU_INSET_PX,
          y: Math.max(area?.top ?? 0, 0) + KEYBOARD_MENU_INSET_PX,
        });
        return;
      }
    }
  };
  usePageShortcuts(sectionRef, options.keysEnabled, onCommand);

  return {
    /** Taps toggle (a long press started selecting, and something is still selected). */
    selecting: touchSelecting && count > 0,
    clear,
    announceCount,
    openItemMenu,
    /** A right-click on the listing's background (not on an item or a control). */
    onAreaContextMenu: (event: MouseEvent<HTMLElement>) => {
      if ((event.target as Element).closest('[data-item-key], button, a, input, textarea, [role="menu"]')) return;
      event.preventDefault();
      openBackgroundMenu({ x: event.clientX, y: event.clientY });
    },
    onItemLongPress: (item: DriveItem) => {
      setTouchSelecting(true);
      selection.setActiveKey(item.key);
      if (!selection.selection.has(item.key)) selection.toggle(item);
      announceCount(selection.selection.has(item.key) ? count : count + 1);
    },
    onBarAction: (action: SelectionBarAction) => {
      const items = selection.selected();
      const [first] = items;
      if (!first) return;
      if (action === 'download') options.download(items);
      else if (action === 'share' || action === 'star' || action === 'unstar') runAction(action, first);
      else openDialog({ type: action, items });
    },
  };
}
