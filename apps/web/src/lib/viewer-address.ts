/**
 * The file viewer's state lives in the address (`?view=<fileId>`) beside whatever else the
 * page keeps there (`?folder=`), so a reload shows the same file and Back closes it.
 */
export const VIEW_PARAM = 'view';

/** The file open in the viewer, or null. */
export function viewedFileId(params: URLSearchParams): string | null {
  const id = params.get(VIEW_PARAM);
  return id ? id : null;
}

/** The same address with `fileId` open in the viewer, or with the viewer closed (null). */
export function withViewedFile(params: URLSearchParams, fileId: string | null): URLSearchParams {
  const next = new URLSearchParams(params);
  if (fileId === null) next.delete(VIEW_PARAM);
  else next.set(VIEW_PARAM, fileId);
  return next;
}

/** Marks the history entry the viewer pushed, so closing it goes Back instead of adding one. */
export interface ViewerHistoryState {
  viewerOpened?: true;
}

export function openedHere(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as ViewerHistoryState).viewerOpened === true;
}
