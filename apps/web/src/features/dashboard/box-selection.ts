/** A rectangle in page or viewport pixels. */
export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** A drag shorter than this (each way) is a click on the background, not a box. */
export const BOX_MIN_DRAG_PX = 4;

/** The box a drag from `start` to `end` spans, whichever way it went. */
export function boxBetween(start: { x: number; y: number }, end: { x: number; y: number }): Box {
  return {
    left: Math.min(start.x, end.x),
    top: Math.min(start.y, end.y),
    right: Math.max(start.x, end.x),
    bottom: Math.max(start.y, end.y),
  };
}

/** Whether the drag has gone far enough to be a box. */
export function isBoxDrag(box: Box): boolean {
  return box.right - box.left >= BOX_MIN_DRAG_PX || box.bottom - box.top >= BOX_MIN_DRAG_PX;
}

/** Whether two boxes overlap; touching edges count (a box drawn up to a tile's border takes it). */
export function boxesTouch(a: Box, b: Box): boolean {
  return a.left <= b.right && b.left <= a.right && a.top <= b.bottom && b.top <= a.bottom;
}

/** The keys of the cells the box touches, in the cells' order. */
export function keysInBox(box: Box, cells: ReadonlyArray<{ key: string; box: Box }>): string[] {
  return cells.filter((cell) => boxesTouch(box, cell.box)).map((cell) => cell.key);
}

/**
 * What a box selects: the keys it touches, added to those selected when it started if Ctrl,
 * Cmd or Shift was held (so that shrinking the box gives back what it no longer touches).
 */
export function boxSelection(touched: readonly string[], before: ReadonlySet<string>, additive: boolean): Set<string> {
  return new Set(additive ? [...before, ...touched] : touched);
}
