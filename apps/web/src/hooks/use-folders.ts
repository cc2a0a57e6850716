import { infiniteQueryOptions, queryOptions, useQuery } from '@tanstack/react-query';
import type { Folder } from '@cloudvault/contract/folders';
import { api } from '../lib/api-client';
import { driveKeys } from '../lib/query-keys';
import { listingPageQuery, type ListingOrderQuery, type ListingPageOf } from './use-files';

/** GET /api/user/folders?parentId=: the folders directly inside a folder (null: home). */
export async function getFolders(parentId: string | null, signal?: AbortSignal): Promise<Folder[]> {
  const { folders } = await api.get<{ folders: Folder[] }>('/user/folders', { query: { parentId }, signal });
  return folders;
}

export function foldersQueryOptions(parentId: string | null) {
  return queryOptions({
    queryKey: driveKeys.folders(parentId),
    queryFn: ({ signal }) => getFolders(parentId, signal),
    // A folder is re-read each time it is opened (docs/product.md#dashboard); the cached
    // listing shows meanwhile.
    staleTime: 0,
  });
}

export function useFolders(parentId: string | null, enabled = true) {
  return useQuery({ ...foldersQueryOptions(parentId), enabled });
}

/** GET /api/user/folders?parentId=&sort=&order=&limit=&cursor=: one page of a folder's sub-folders in that order. */
export async function getFoldersPage(
  parentId: string | null,
  listing: ListingOrderQuery,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<ListingPageOf<Folder>> {
  const { folders, nextCursor } = await api.get<{ folders: Folder[]; nextCursor?: string | null }>('/user/folders', {
    query: { parentId, ...listingPageQuery(listing, cursor) },
    signal,
  });
  return { items: folders, nextCursor: nextCursor ?? null };
}

/** A folder's sub-folders in an order, a page at a time, under the folder's folders key (invalidated with it). */
export function sortedFoldersQueryOptions(parentId: string | null, listing: ListingOrderQuery) {
  return infiniteQueryOptions({
    queryKey: [...driveKeys.folders(parentId), 'sorted', listing.sort, listing.order] as const,
    queryFn: ({ pageParam, signal }) => getFoldersPage(parentId, listing, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    staleTime: 0,
  });
}
