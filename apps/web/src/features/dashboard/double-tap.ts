/** docs/product.md#dashboard: a second tap within this many milliseconds opens a folder. */
export const DOUBLE_TAP_MS = 300;
/** At this width or less (and on touch screens) folders open by double tap. */
export const NARROW_SCREEN_MAX_WIDTH = 768;

export type TapResult = 'select' | 'open';

/**
 * Tells a first tap (select) from a second tap on the same item within the window (open).
 * A tap on another item, or one after the window, starts over. Time comes from the caller.
 */
export function createTapTracker(windowMs: number = DOUBLE_TAP_MS) {
  let last: { id: string; at: number } | null = null;
  return function tap(id: string, now: number): TapResult {
    if (last && last.id === id && now - last.at <= windowMs) {
      last = null;
      return 'open';
    }
    last = { id, at: now };
    return 'select';
  };
}
