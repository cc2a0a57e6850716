import { useRef, useState, type DragEvent, type MouseEvent, type PointerEvent } from 'react';
import { DRAG_ITEMS_TYPE, type DraggedItemRef, type DriveItem } from '../items';

/** What the page does with a click, a double click or a drag of an item. */
export interface ItemInteractionCallbacks {
  /** A click or tap on an item; the page decides (select, toggle, open on a second tap). */
  onItemClick: (item: DriveItem, event: MouseEvent) => void;
  onItemDoubleClick: (item: DriveItem) => void;
  /** What a drag of this item carries: the whole selection when it is part of it. */
  dragRefsFor: (item: DriveItem) => DraggedItemRef[];
  onDropOnFolder: (refs: DraggedItemRef[], folderId: string) => void;
  /** A right-click on the item: its context menu at the pointer. */
  onItemContextMenu: (item: DriveItem, at: { x: number; y: number }) => void;
  /** A touch held still on the item for LONG_PRESS_MS: selecting by touch starts with it. */
  onItemLongPress: (item: DriveItem) => void;
}

/** How long a touch held still on an item starts selecting. */
export const LONG_PRESS_MS = 500;
/** A touch that moves further (a scroll) is no long press. */
const LONG_PRESS_SLOP_PX = 10;

const readRefs = (event: DragEvent): DraggedItemRef[] | null => {
  try {
    const refs = JSON.parse(event.dataTransfer.getData(DRAG_ITEMS_TYPE)) as unknown;
    return Array.isArray(refs) ? (refs as DraggedItemRef[]) : null;
  } catch {
    return null;
  }
};

const carriesItems = (event: DragEvent) => Array.from(event.dataTransfer.types).includes(DRAG_ITEMS_TYPE);

/**
 * Pointer, drag and drop behaviour shared by tiles and rows: every item can be dragged
 * except on touch or narrow screens, and a folder takes items dropped on it, showing it
 * is a target while they hover.
 */
export function useItemInteractions(item: DriveItem, narrow: boolean, callbacks: ItemInteractionCallbacks) {
  const [dropTarget, setDropTarget] = useState(false);
  const isFolder = item.kind === 'folder';
  // A touch held on the item: where it started and its timer; `fired` once it became a long press.
  const press = useRef<{ x: number; y: number; timer: number; fired: boolean } | null>(null);
  const endPress = () => {
    if (press.current) window.clearTimeout(press.current.timer);
  };
  return {
    dropTarget,
    handlers: {
      onClick: (event: MouseEvent) => {
        // The tap that ends a long press only ends it.
        if (press.current?.fired) {
          press.current = null;
          return;
        }
        callbacks.onItemClick(item, event);
      },
      onContextMenu: (event: MouseEvent) => {
        event.preventDefault();
        // On touch, the browser's own menu of a long press is the long press.
        if (press.current) return;
        callbacks.onItemContextMenu(item, { x: event.clientX, y: event.clientY });
      },
      onPointerDown: (event: PointerEvent) => {
        if (event.pointerType !== 'touch') return;
        endPress();
        const started = { x: event.clientX, y: event.clientY, fired: false, timer: 0 };
        started.timer = window.setTimeout(() => {
          started.fired = true;
          callbacks.onItemLongPress(item);
        }, LONG_PRESS_MS);
        press.current = started;
      },
      onPointerMove: (event: PointerEvent) => {
        const started = press.current;
        if (!started || started.fired) return;
        if (Math.hypot(event.clientX - started.x, event.clientY - started.y) > LONG_PRESS_SLOP_PX) {
          endPress();
          press.current = null;
        }
      },
      onPointerUp: (event: PointerEvent) => {
        endPress();
        // A press cut short leaves nothing behind; one that fired waits for its click.
        if (!press.current?.fired || event.pointerType !== 'touch') press.current = null;
      },
      onPointerCancel: () => {
        endPress();
        if (!press.current?.fired) press.current = null;
      },
      onDoubleClick: () => callbacks.onItemDoubleClick(item),
      draggable: !narrow,
      onDragStart: (event: DragEvent) => {
        const refs = callbacks.dragRefsFor(item);
        event.dataTransfer.setData(DRAG_ITEMS_TYPE, JSON.stringify(refs));
        event.dataTransfer.setData('text/plain', item.name);
        event.dataTransfer.effectAllowed = 'move';
      },
      onDragOver: isFolder
        ? (event: DragEvent) => {
            if (!carriesItems(event)) return;
            event.preventDefault();
            event.dataTransfer.dropEffect = 'move';
            if (!dropTarget) setDropTarget(true);
          }
        : undefined,
      onDragLeave: isFolder ? () => setDropTarget(false) : undefined,
      onDrop: isFolder
        ? (event: DragEvent) => {
            if (!carriesItems(event)) return;
            event.preventDefault();
            setDropTarget(false);
            const refs = readRefs(event);
            if (refs) callbacks.onDropOnFolder(refs, item.id);
          }
        : undefined,
    },
  };
}

export type ItemHandlers = ReturnType<typeof useItemInteractions>['handlers'];
