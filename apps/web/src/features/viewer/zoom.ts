/** The image's scale and offset (CSS pixels) over its fitted size: 1 and 0,0 is fitted and centred. */
export interface ZoomState {
  scale: number;
  x: number;
  y: number;
}

export const FITTED: ZoomState = { scale: 1, x: 0, y: 0 };
export const MIN_SCALE = 1;
export const MAX_SCALE = 8;
/** One step of the buttons and keys. */
export const ZOOM_STEP = 1.5;

/** Keeps the picture covering the view's centre: it can be moved only as far as it overhangs. */
export function clampPan(state: ZoomState, fitted: { width: number; height: number }): ZoomState {
  const limitX = (fitted.width * (state.scale - 1)) / 2;
  const limitY = (fitted.height * (state.scale - 1)) / 2;
  const clamp = (value: number, limit: number) => Math.max(-limit, Math.min(limit, value)) || 0; // never -0
  return { scale: state.scale, x: clamp(state.x, limitX), y: clamp(state.y, limitY) };
}

/**
 * Zooms to `scale` about a point (offset from the view's centre, CSS pixels), so that what
 * is under the pointer stays under it; within MIN_SCALE..MAX_SCALE.
 */
export function zoomAt(
  state: ZoomState,
  scale: number,
  point: { x: number; y: number },
  fitted: { width: number; height: number },
): ZoomState {
  const next = Math.max(MIN_SCALE, Math.min(MAX_SCALE, scale));
  const ratio = next / state.scale;
  return clampPan({ scale: next, x: point.x - (point.x - state.x) * ratio, y: point.y - (point.y - state.y) * ratio }, fitted);
}
