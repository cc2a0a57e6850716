import { useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { sortedFilesQueryOptions } from '../../../hooks/use-files';
import { sortedFoldersQueryOptions } from '../../../hooks/use-folders';
import { driveItemsFromPages, type ListingOrderChoice } from '../listing-pages';

/**
 * The open folder's items in the chosen order, read a page at a time from the server
 * (docs/api.md#names-and-listings): the first page of its folders and of its files at once,
 * later pages on `loadMore` (the listing's end scrolled near), folders to their end before
 * any file shows. A 100,000-file folder opens on one page and sorts without being read whole.
 */
export function usePagedListing(folderId: string | null, listing: ListingOrderChoice) {
  const folders = useInfiniteQuery(sortedFoldersQueryOptions(folderId, listing));
  const files = useInfiniteQuery(sortedFilesQueryOptions(folderId, listing));

  const foldersComplete = folders.data !== undefined && !folders.hasNextPage;
  const items = useMemo(
    () =>
      folders.data && files.data
        ? driveItemsFromPages(
            { pages: folders.data.pages, complete: foldersComplete },
            { pages: files.data.pages, complete: !files.hasNextPage },
          )
        : null,
    [folders.data, files.data, foldersComplete, files.hasNextPage],
  );
  const complete = items !== null && foldersComplete && !files.hasNextPage;
  const loadingMore = folders.isFetchingNextPage || files.isFetchingNextPage;

  const { fetchNextPage: nextFolders, hasNextPage: moreFolders } = folders;
  const { fetchNextPage: nextFiles } = files;
  const loadMore = useCallback(() => {
    if (loadingMore) return;
    if (moreFolders) void nextFolders();
    else void nextFiles();
  }, [loadingMore, moreFolders, nextFolders, nextFiles]);

  const { refetch: refetchFolders } = folders;
  const { refetch: refetchFiles } = files;
  const refetch = useCallback(() => {
    void refetchFolders();
    void refetchFiles();
  }, [refetchFolders, refetchFiles]);

  return {
    /** Folders then files, as far as read; null until the first pages came. */
    items,
    /** Every page has come. */
    complete,
    loadingMore,
    loadMore,
    refetch,
    /** A later page failed: scrolling does not ask again on its own (Try again does). */
    nextPageFailed: folders.isFetchNextPageError || files.isFetchNextPageError,
    isError: folders.isError || files.isError,
    /** Waiting for the network: offline, and the device kept no copy of this folder. */
    paused: folders.isPaused || files.isPaused,
    errors: [folders.error, files.error],
  };
}
