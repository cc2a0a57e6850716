import type { QueryClient } from '@tanstack/react-query';
import type { FileItem } from '@cloudvault/contract/files';
import type { Folder } from '@cloudvault/contract/folders';
import { LISTING_ORDERS, LISTING_SORTS } from '@cloudvault/contract/sort-keys';
import { driveKeys } from '../../lib/query-keys';
import { insertSorted, type DriveItem } from './items';
import {
  compareInListing,
  insertIntoPages,
  removeFromPages,
  sortableFile,
  sortableFolder,
  type ListingOrderChoice,
  type PagedData,
} from './listing-pages';

type ListingKey = readonly unknown[];

/** The order a sorted listing's key names (`[...listing key, 'sorted', sort, order]`), or null for another key. */
function orderOfKey(key: ListingKey, prefixLength: number): ListingOrderChoice | null {
  const [marker, sort, order] = key.slice(prefixLength);
  const knownSort = LISTING_SORTS.find((value) => value === sort);
  const knownOrder = LISTING_ORDERS.find((value) => value === order);
  return marker === 'sorted' && knownSort && knownOrder ? { sort: knownSort, order: knownOrder } : null;
}

/** Applies `edit` to every sorted listing cached under `prefix`, with the order each is in. */
function editSortedListings<T>(
  queryClient: QueryClient,
  prefix: ListingKey,
  edit: (data: PagedData<T>, listing: ListingOrderChoice) => PagedData<T>,
): void {
  for (const [key, data] of queryClient.getQueriesData<PagedData<T>>({ queryKey: prefix })) {
    const listing = orderOfKey(key, prefix.length);
    if (listing && data) queryClient.setQueryData<PagedData<T>>(key, edit(data, listing));
  }
}

/** A file that just landed shows in its folder's listings at once, where each listing's order has it. */
export function addFileToListings(queryClient: QueryClient, file: FileItem): void {
  const key = driveKeys.files(file.folderId);
  queryClient.setQueryData<FileItem[]>(key, (list) =>
    list
      ? insertSorted(
          list.filter((existing) => existing.id !== file.id),
          file,
          (entry) => entry.originalName,
        )
      : list,
  );
  editSortedListings<FileItem>(queryClient, key, (data, listing) =>
    insertIntoPages(data, file, (a, b) => compareInListing(sortableFile(a), sortableFile(b), listing)),
  );
}

/** A new folder shows in its parent's listings at once. */
export function addFolderToListings(queryClient: QueryClient, folder: Folder): void {
  editSortedListings<Folder>(queryClient, driveKeys.folders(folder.parentId), (data, listing) =>
    insertIntoPages(data, folder, (a, b) => compareInListing(sortableFolder(a), sortableFolder(b), listing)),
  );
}

/** A deleted item leaves its folder's listings at once, in every order. */
export function removeFromListings(queryClient: QueryClient, item: DriveItem): void {
  const key = item.kind === 'folder' ? driveKeys.folders(item.folder.parentId) : driveKeys.files(item.file.folderId);
  queryClient.setQueryData<Array<{ id: string }>>(key, (list) => list?.filter((entry) => entry.id !== item.id));
  editSortedListings<{ id: string }>(queryClient, key, (data) => removeFromPages(data, item.id));
}
