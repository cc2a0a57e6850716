import { useState, type DragEvent, type MouseEvent } from 'react';
import { DRAG_ITEMS_TYPE, type DraggedItemRef, type DriveItem } from '../items';

/** What the page does with a click, a double click or a drag of an item. */
export interface ItemInteractionCallbacks {
  /** A click or tap on an item; the page decides (select, toggle, open on a second tap). */
  onItemClick: (item: DriveItem, event: MouseEvent) => void;
  onItemDoubleClick: (item: DriveItem) => void;
  /** What a drag of this item carries: the whole selection when it is part of it. */
  dragRefsFor: (item: DriveItem) => DraggedItemRef[];
  onDropOnFolder: (refs: DraggedItemRef[], folderId: string) => void;
}

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
  return {
    dropTarget,
    handlers: {
      onClick: (event: MouseEvent) => callbacks.onItemClick(item, event),
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
