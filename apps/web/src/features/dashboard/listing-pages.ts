import type { FileItem } from '@cloudvault/contract/files';
import type { Folder } from '@cloudvault/contract/folders';
import { naturalSortKey, type ListingOrder, type ListingSort } from '@cloudvault/contract/sort-keys';
import type { ListingPageOf, SortedListing } from '../../hooks/use-files';
import { fileItem, folderItem, type DriveItem } from './items';

/** The order a folder is listed in (settings `listing`). */
export interface ListingOrderChoice {
  sort: ListingSort;
  order: ListingOrder;
}

/** Pages as TanStack Query's infinite queries keep them. */
export interface PagedData<T> {
  pages: Array<ListingPageOf<T>>;
  pageParams: unknown[];
}

/**
 * A column header click: another column sorts by it, ascending; the sorted column flips its order.
 */
export function nextSortOnHeader(current: ListingOrderChoice, sort: ListingSort): ListingOrderChoice {
  if (current.sort !== sort) return { sort, order: 'asc' };
  return { sort, order: current.order === 'asc' ? 'desc' : 'asc' };
}

/** Every page's items in order, each once: an item the client put into a page early may come again with a later page. */
export function mergePages<T extends { id: string }>(pages: ReadonlyArray<ListingPageOf<T>>): T[] {
  const seen = new Set<string>();
  const items: T[] = [];
  for (const page of pages) {
    for (const item of page.items) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      items.push(item);
    }
  }
  return items;
}

/**
 * The open folder's items for display: its folders first, then its files. Files show only
 * once every folder has come (folders and files page separately, docs/api.md#names-and-listings),
 * so no file ever shows above a folder that a later page brings.
 */
export function driveItemsFromPages(folders: SortedListing<Folder>, files: SortedListing<FileItem>): DriveItem[] {
  const shown = mergePages(folders.pages).map(folderItem);
  if (folders.complete) shown.push(...mergePages(files.pages).map(fileItem));
  return shown;
}

type Sortable = { id: string; name: string; size?: number; updatedAt: string; mimetype?: string };

/** The values an item sorts by under `sort`, as the server compares them (decision 0044): the column, the natural-order key, the id. */
function sortValues(item: Sortable, sort: ListingSort): Array<string | number> {
  const tail = [naturalSortKey(item.name), item.id];
  // Folders have no size or type: the server sorts them by name for those.
  if (sort === 'size' && item.size !== undefined) return [item.size, ...tail];
  if (sort === 'modified') return [item.updatedAt, ...tail];
  if (sort === 'type' && item.mimetype !== undefined) return [item.mimetype, ...tail];
  return tail;
}

/**
 * JavaScript compares strings by UTF-16 units, the server by UTF-8 bytes: the same order but
 * for rare characters past U+E000, and then only where a new item is first shown (mergePages keeps it once).
 */
function compareValue(a: string | number, b: string | number): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/** Compares two items in the listing's order, as the server's pages have them. */
export function compareInListing(a: Sortable, b: Sortable, { sort, order }: ListingOrderChoice): number {
  const left = sortValues(a, sort);
  const right = sortValues(b, sort);
  for (let index = 0; index < left.length; index += 1) {
    const difference = compareValue(left[index] as string | number, right[index] as string | number);
    if (difference !== 0) return order === 'asc' ? difference : -difference;
  }
  return 0;
}

/** A file as the listing's order sees it. */
export const sortableFile = (file: FileItem): Sortable => ({
  id: file.id,
  name: file.originalName,
  size: file.size,
  updatedAt: file.updatedAt,
  mimetype: file.mimetype,
});

/** A folder as the listing's order sees it. */
export const sortableFolder = (folder: Folder): Sortable => ({ id: folder.id, name: folder.name, updatedAt: folder.updatedAt });

/**
 * Pages with `item` put where the listing's order has it (replacing an item of the same
 * id). An item that sorts after everything loaded while more pages are to come is left to
 * the page that will bring it: the next page starts after the last item shown.
 */
export function insertIntoPages<T extends { id: string }>(data: PagedData<T>, item: T, compare: (a: T, b: T) => number): PagedData<T> {
  const pages = data.pages.map((page) => ({ ...page, items: page.items.filter((entry) => entry.id !== item.id) }));
  const hasMore = pages.at(-1)?.nextCursor != null;
  for (const page of pages) {
    const index = page.items.findIndex((entry) => compare(item, entry) < 0);
    if (index !== -1) {
      page.items.splice(index, 0, item);
      return { ...data, pages };
    }
  }
  const last = pages.at(-1);
  if (last && !hasMore) last.items.push(item);
  return { ...data, pages };
}

/** Pages without the item of that id. */
export function removeFromPages<T extends { id: string }>(data: PagedData<T>, id: string): PagedData<T> {
  return { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.filter((item) => item.id !== id) })) };
}
