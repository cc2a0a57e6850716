import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { Folder } from '@cloudvault/contract/folders';
import { driveKeys } from '../../../lib/query-keys';
import { arrivalFocusKey } from '../arrival-focus';
import type { DriveItem } from '../items';

interface ArrivalFocusOptions {
  folderId: string | null;
  /** The folder shown before this one (null: My Files); undefined when the dashboard opened here. */
  leftFolderId: string | null | undefined;
  /** The item a "Show in folder" asked for: it takes the focus instead. */
  revealKey: string | null;
  /** null while loading. */
  items: DriveItem[] | null;
  /** Focuses the item arrived on. */
  onArrive: (key: string) => void;
}

/**
 * Arriving from another folder (a tile, Back, a breadcrumb), the focus lands on an item, or
 * on the empty folder's heading, once the listing is in: never on the page's <body>.
 * Returns whether the empty folder's heading is to take it.
 */
export function useArrivalFocus({ folderId, leftFolderId, revealKey, items, onArrive }: ArrivalFocusOptions): boolean {
  const queryClient = useQueryClient();
  // The path of the folder left is still in the query cache: it tells where we came from.
  const [arrival, setArrival] = useState(() =>
    leftFolderId === undefined || revealKey !== null
      ? null
      : { leftPath: leftFolderId === null ? [] : (queryClient.getQueryData<Folder[]>(driveKeys.path(leftFolderId)) ?? []) },
  );
  const [focusEmptyHeading, setFocusEmptyHeading] = useState(false);
  useEffect(() => {
    if (!arrival || !items) return;
    setArrival(null);
    const key = arrivalFocusKey(items, folderId, arrival.leftPath);
    if (key === null) {
      setFocusEmptyHeading(true);
      return;
    }
    onArrive(key);
  }, [arrival, items, folderId, onArrive]);
  return focusEmptyHeading;
}
