import { useCallback, useEffect, useRef } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { openedHere, viewedFileId, withViewedFile, type ViewerHistoryState } from '../lib/viewer-address';

export interface ViewedFile {
  /** The file open in the viewer, or null. */
  fileId: string | null;
  /** Opens the viewer on a file: a new history entry, so Back closes it. */
  open: (fileId: string) => void;
  /** Shows another file in the open viewer, in place (Back still closes the viewer). */
  move: (fileId: string) => void;
  /** Closes the viewer: Back when opening it pushed the entry, else the address without it. */
  close: () => void;
}

/** The viewer's `?view=<fileId>` of the current page (lib/viewer-address.ts). */
export function useViewedFile(): ViewedFile {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const state: unknown = location.state;
  const fileId = viewedFileId(params);

  const open = useCallback(
    (id: string) => setParams((current) => withViewedFile(current, id), { state: { viewerOpened: true } satisfies ViewerHistoryState }),
    [setParams],
  );
  const move = useCallback(
    (id: string) => setParams((current) => withViewedFile(current, id), { replace: true, state }),
    [setParams, state],
  );
  const close = useCallback(() => {
    if (openedHere(state)) void navigate(-1);
    else setParams((current) => withViewedFile(current, null), { replace: true });
  }, [navigate, setParams, state]);

  return { fileId, open, move, close };
}

/**
 * Calls `onClosed` with the file last shown once the viewer closes (Escape, its button,
 * Back), so the page can give the focus back to that file's tile or row.
 */
export function useViewerClosed(fileId: string | null, onClosed: (lastFileId: string) => void): void {
  const lastShown = useRef<string | null>(null);
  const latest = useRef(onClosed);
  useEffect(() => {
    latest.current = onClosed;
  }, [onClosed]);
  useEffect(() => {
    if (fileId !== null) {
      lastShown.current = fileId;
      return;
    }
    const last = lastShown.current;
    lastShown.current = null;
    if (last !== null) latest.current(last);
  }, [fileId]);
}
