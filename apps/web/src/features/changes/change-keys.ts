import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { Change } from '@cloudvault/contract/changes';
import { driveKeys, notificationKeys, shareKeys, trashKeys, versionKeys } from '../../lib/query-keys';

/**
 * Which cached answers a batch of changes makes stale (docs/decisions/0060-change-journal.md):
 * only what the changes touched, each key once however many changes touch it, so a copy of
 * a thousand files refetches its folder's listing once. A listing that already shows the
 * change (this tab made it and put it in its cache, or fetched it since) is left alone, so a
 * tab's own upload or rename is not fetched again under it. Invalidating a key reaches every
 * answer under it (each order of a sorted listing); only the answers a screen shows are
 * fetched again, the others when next shown.
 */

/** What the query cache's listings hold (cachedListings reads a QueryClient). */
export interface CachedListings {
  /** The listing keys (`driveKeys.files(id)`, `driveKeys.folders(id)`) whose cached answer lists the item. */
  holding(itemId: string): readonly QueryKey[];
  /**
   * Whether every cached answer under this listing key shows the item as the change left it
   * (true when none is cached), with no fetch of it on its way.
   */
  showsAsChanged(listingKey: QueryKey, change: Change): boolean;
}

export interface TouchedKeys {
  keys: QueryKey[];
  /** A private share's root appeared: the bell's notification may be written just after it (see change-applier). */
  newShare: boolean;
}

const FILE_CONTENT_OPS: ReadonlySet<Change['op']> = new Set(['created', 'updated', 'deleted', 'restored']);

export function keysTouchedBy(changes: readonly Change[], cache: CachedListings): TouchedKeys {
  const keys = new Map<string, QueryKey>();
  const add = (key: QueryKey) => keys.set(JSON.stringify(key), key);
  let newShare = false;

  for (const change of changes) {
    const listing = change.kind === 'file' ? driveKeys.files : driveKeys.folders;
    // Another account's item seen through a share: its space and its Trash are the owner's.
    const own = change.shareId === undefined;
    // A share's root is in no listing of this account's: Shared with me shows it.
    const shareRoot = !own && change.parentId === null;
    const here = change.op === 'deleted' || shareRoot ? null : listing(change.parentId);
    if (here && !cache.showsAsChanged(here, change)) add(here);
    if (change.op === 'deleted' || change.op === 'moved') {
      // The listings it left: wherever else the cache still shows it.
      for (const key of cache.holding(change.id)) if (!here || JSON.stringify(key) !== JSON.stringify(here)) add(key);
    }

    if (own && change.kind === 'file' && FILE_CONTENT_OPS.has(change.op)) add(driveKeys.storage);
    if (own && change.kind === 'folder' && (change.op === 'deleted' || change.op === 'restored')) add(driveKeys.storage);
    if (own && (change.op === 'deleted' || change.op === 'restored')) add(trashKeys.all);
    if (change.kind === 'file' && change.op === 'updated') add(versionKeys.ofFile(change.id));
    // A folder renamed, moved, gone or back: the paths shown through it (breadcrumbs).
    if (change.kind === 'folder' && change.op !== 'created') add(['drive', 'path']);
    // An open folder that went to Trash says so.
    if (change.kind === 'folder' && change.op === 'deleted') {
      add(driveKeys.folders(change.id));
      add(driveKeys.files(change.id));
    }
    // Names and places show in the owner's list of shares.
    if (own && change.op !== 'created' && change.op !== 'updated') add(shareKeys.mine);

    // The root of something shared with this account appeared, went or changed.
    if (shareRoot) {
      add(shareKeys.sharedWithMe);
      if (change.op === 'created') {
        add(notificationKeys.all);
        newShare = true;
      }
    }
  }
  if (changes.length > 0) {
    // Views across folders: cheap, as only the ones on screen ask again.
    add(driveKeys.searches);
    add(driveKeys.starred);
    add(driveKeys.recent);
  }
  return { keys: [...keys.values()], newShare };
}

/** The listing key a cached answer is under, when `key` is one of a folder's listings (sorted or not). */
export function listingKeyOf(key: QueryKey): QueryKey | null {
  const [area, kind, folder] = key;
  if (area !== driveKeys.all[0] || (kind !== 'files' && kind !== 'folders') || typeof folder !== 'string') return null;
  return [area, kind, folder];
}

interface ListedItem {
  id?: unknown;
  name?: unknown;
  originalName?: unknown;
  size?: unknown;
  contentHash?: unknown;
}

/** The entries of a listing's answer: a plain list, or the pages of a sorted one. */
function entriesOf(data: unknown): ListedItem[] {
  if (Array.isArray(data)) return data as ListedItem[];
  const pages = (data as { pages?: unknown } | null | undefined)?.pages;
  if (!Array.isArray(pages)) return [];
  return pages.flatMap((page) => {
    const items = (page as { items?: unknown } | null)?.items;
    return Array.isArray(items) ? (items as ListedItem[]) : [];
  });
}

/** Whether a listing's answer shows the item. */
export function listingHolds(data: unknown, itemId: string): boolean {
  return entriesOf(data).some((entry) => entry?.id === itemId);
}

/** Whether a listing's answer shows the item with the name (and, for a file, the content) the change gave it. */
export function listingShows(data: unknown, change: Change): boolean {
  const entry = entriesOf(data).find((candidate) => candidate?.id === change.id);
  if (!entry) return false;
  if ((change.kind === 'file' ? entry.originalName : entry.name) !== change.name) return false;
  if (change.kind !== 'file') return true;
  // Content a cached entry cannot vouch for (no hash kept) counts as not shown.
  return entry.size === change.size && entry.contentHash !== undefined && entry.contentHash === change.contentHash;
}

/** The query cache's listings, as keysTouchedBy reads them. */
export function cachedListings(queryClient: QueryClient): CachedListings {
  const cache = queryClient.getQueryCache();
  return {
    holding(itemId) {
      const found = new Map<string, QueryKey>();
      for (const query of cache.findAll({ queryKey: driveKeys.all })) {
        const key = listingKeyOf(query.queryKey);
        if (key && listingHolds(query.state.data, itemId)) found.set(JSON.stringify(key), key);
      }
      return [...found.values()];
    },
    showsAsChanged(listingKey, change) {
      return cache.findAll({ queryKey: listingKey }).every(
        (query) =>
          // A fetch on its way may have left before the change: only invalidating makes sure its answer is not the last.
          query.state.fetchStatus === 'idle' && (query.state.data === undefined || listingShows(query.state.data, change)),
      );
    },
  };
}
