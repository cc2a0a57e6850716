/** docs/product.md#dashboard: tiles appear one after another, 50 ms apart. */
export const STAGGER_STEP_MS = 50;
/** How long one tile's entrance animation runs (styles.css, .cv-tile-in). */
export const TILE_ENTER_MS = 200;
/** A large folder never animates for longer than this in total. */
export const STAGGER_TOTAL_MS = 500;

/**
 * The animation delay of the tile at `index` (in the order it appears): 50 ms per tile,
 * capped so that the last tile has finished by STAGGER_TOTAL_MS.
 */
export function staggerDelay(index: number): number {
  return Math.min(Math.max(0, index) * STAGGER_STEP_MS, STAGGER_TOTAL_MS - TILE_ENTER_MS);
}
