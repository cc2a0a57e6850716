import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { startTransition, useEffect, useState } from 'react';
import { useAfterFirstPaint } from '../../../hooks/use-after-first-paint';
import { columnsForWidth } from '../grid-columns';
import { useMeasuredArea } from './use-measured-area';
import type { ViewMode } from './use-view-mode';

const GRID_TILE_HEIGHT = 156;
/** Two columns on a phone: shorter tiles, no date. */
const COMPACT_TILE_HEIGHT = 128;
const GRID_GAP = 12;
const LIST_ROW_HEIGHT = 60;
/** Rows rendered beyond the screen on each side, so a scroll shows no blank rows. */
const OVERSCAN_ROWS = 4;

/**
 * The rows of `itemCount` items laid out in the element behind `containerRef` (tiles in
 * columns that follow its width, or one item a row in the list), of which only those in
 * view are rendered, so 10,000 items scroll smoothly.
 */
export function useVirtualItemRows(itemCount: number, view: ViewMode) {
  const { ref: containerRef, width, scrollMargin } = useMeasuredArea<HTMLDivElement>();

  // Before the area is measured, the window's width is the closest guess (a phone's two
  // columns, not a desktop's five rendered and thrown away).
  const columns = view === 'grid' ? columnsForWidth(width || window.innerWidth) : 1;
  const compact = view === 'grid' && columns <= 2;
  const tileHeight = compact ? COMPACT_TILE_HEIGHT : GRID_TILE_HEIGHT;
  const cellHeight = view === 'grid' ? tileHeight : LIST_ROW_HEIGHT;
  const rowHeight = view === 'grid' ? tileHeight + GRID_GAP : LIST_ROW_HEIGHT;
  const rowCount = Math.ceil(itemCount / columns);

  // The items render first in a transition, which React splits into short tasks: opening a
  // folder does not hold a phone's main thread (input, the rest of the page) for all its tiles
  // at once. Later changes (a rename, an upload) render at once as usual.
  const [shown, setShown] = useState(false);
  useEffect(() => startTransition(() => setShown(true)), []);
  // Rows past the screen are there for scrolling, which cannot start before the rows in view
  // are painted: those come first with one row more, the rest of the margin a frame later
  // (half the tiles a phone's first paint of a folder styles and lays out).
  const rowsPainted = useAfterFirstPaint(shown);

  const virtualizer = useWindowVirtualizer({
    count: rowCount,
    estimateSize: () => rowHeight,
    overscan: rowsPainted ? OVERSCAN_ROWS : 1,
    scrollMargin,
  });
  useEffect(() => {
    virtualizer.measure();
  }, [virtualizer, rowHeight, columns]);

  return {
    containerRef,
    /** 0 until the area is measured. */
    width,
    /** The first render has happened: the rows in view may render. */
    shown,
    columns,
    /** Small tiles (phone): no date. */
    compact,
    /** The height of a tile or a list row. */
    cellHeight,
    rowCount,
    virtualizer,
    virtualRows: shown ? virtualizer.getVirtualItems() : [],
  };
}

export type VirtualItemRows = ReturnType<typeof useVirtualItemRows>;
