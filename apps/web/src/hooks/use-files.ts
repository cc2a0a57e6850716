import { infiniteQueryOptions, queryOptions, useQuery } from '@tanstack/react-query';
import type { FileItem } from '@cloudvault/contract/files';
import type { ListingOrder, ListingSort } from '@cloudvault/contract/sort-keys';
import { api } from '../lib/api-client';
import { driveKeys } from '../lib/query-keys';

/** GET /api/files?folderId=: the files directly inside a folder (null: home). */
export async function getFiles(folderId: string | null, signal?: AbortSignal): Promise<FileItem[]> {
  const { files } = await api.get<{ files: FileItem[] }>('/files', { query: { folderId }, signal });
  return files;
}

export function filesQueryOptions(folderId: string | null) {
  return queryOptions({
    queryKey: driveKeys.files(folderId),
    queryFn: ({ signal }) => getFiles(folderId, signal),
    staleTime: 0,
  });
}

export function useFiles(folderId: string | null) {
  return useQuery(filesQueryOptions(folderId));
}

/** One page of a sorted listing (docs/api.md#names-and-listings): `nextCursor` null after the last. */
export interface ListingPageOf<T> {
  items: T[];
  nextCursor: string | null;
}

/** A sorted listing as far as it has been read: its pages, and whether the last one came. */
export interface SortedListing<T> {
  pages: ReadonlyArray<ListingPageOf<T>>;
  complete: boolean;
}

/** The order a sorted listing asks for. */
export interface ListingOrderQuery {
  sort: ListingSort;
  order: ListingOrder;
}

/**
 * Items a page of a sorted listing asks for: a few screens of tiles, so a 100,000-file folder
 * opens on one small answer (the page `npm run bench` times) and scrolling asks for the next
 * well before its end.
 */
export const LISTING_PAGE_SIZE = 100;

/** The query of one page of a sorted listing. */
export function listingPageQuery({ sort, order }: ListingOrderQuery, cursor: string | null): Record<string, string> {
  return { sort, order, limit: String(LISTING_PAGE_SIZE), ...(cursor ? { cursor } : {}) };
}

/** GET /api/files?folderId=&sort=&order=&limit=&cursor=: one page of a folder's files in that order. */
export async function getFilesPage(
  folderId: string | null,
  listing: ListingOrderQuery,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<ListingPageOf<FileItem>> {
  const { files, nextCursor } = await api.get<{ files: FileItem[]; nextCursor?: string | null }>('/files', {
    query: { folderId, ...listingPageQuery(listing, cursor) },
    signal,
  });
  return { items: files, nextCursor: nextCursor ?? null };
}

/**
 * A folder's files in an order, a page at a time. Under the folder's files key, so whatever
 * invalidates that listing (an upload, a move) invalidates every order of it.
 */
export function sortedFilesQueryOptions(folderId: string | null, listing: ListingOrderQuery) {
  return infiniteQueryOptions({
    queryKey: [...driveKeys.files(folderId), 'sorted', listing.sort, listing.order] as const,
    queryFn: ({ pageParam, signal }) => getFilesPage(folderId, listing, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    staleTime: 0,
  });
}
