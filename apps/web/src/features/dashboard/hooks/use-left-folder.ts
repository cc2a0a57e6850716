import { useState } from 'react';

/**
 * The folder shown before `folderId` while the dashboard stayed open (null: My Files), or
 * undefined when the dashboard opened on this folder (a load, a link from another page):
 * then the focus stays where the browser put it.
 */
export function useLeftFolder(folderId: string | null): string | null | undefined {
  const [visit, setVisit] = useState<{ folderId: string | null; left: string | null | undefined }>({ folderId, left: undefined });
  if (visit.folderId === folderId) return visit.left;
  // Another folder: remembered during render, so its first render already knows (React's pattern for values derived from the previous render).
  setVisit({ folderId, left: visit.folderId });
  return visit.folderId;
}
