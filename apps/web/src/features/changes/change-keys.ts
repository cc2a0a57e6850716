import type { QueryKey } from '@tanstack/react-query';
import type { Change } from '@cloudvault/contract/changes';
import { driveKeys, notificationKeys, shareKeys, trashKeys, versionKeys } from '../../lib/query-keys';

/**
 * Which cached answers a batch of changes makes stale (docs/decisions/0060-change-journal.md):
 * only what the changes touched, each key once however many changes touch it, so a copy of
 * a thousand files refetches its folder's listing once. Invalidating a key reaches every
 * answer under it (each order of a sorted listing); only the answers a screen shows are
 * fetched again, the others are fetched when next shown.
 */

/** Where the cache holds an item now: the listing keys (`driveKeys.files(id)`, `driveKeys.folders(id)`) whose answer lists it. */
export type ListingsHolding = (itemId: string) => readonly QueryKey[];

export interface TouchedKeys {
  keys: QueryKey[];
  /** A private share's root appeared: the bell's notification may be written just after it (see use-live-changes). */
  newShare: boolean;
}

const FILE_CONTENT_OPS: ReadonlySet<Change['op']> = new Set(['created', 'updated', 'deleted', 'restored']);

export function keysTouchedBy(changes: readonly Change[], listingsHolding: ListingsHolding): TouchedKeys {
  const keys = new Map<string, QueryKey>();
  const add = (key: QueryKey) => keys.set(JSON.stringify(key), key);
  let newShare = false;

  for (const change of changes) {
    const listing = change.kind === 'file' ? driveKeys.files : driveKeys.folders;
    // Another account's item seen through a share: its space and its Trash are the owner's.
    const own = change.shareId === undefined;
    const shareRoot = !own && change.parentId === null;
    // Where it is after the change (for `deleted`, where it was, when the server says). A
    // share's root is in no listing of this account's: Shared with me shows it.
    if (!shareRoot) add(listing(change.parentId));
    // The listing it left, for a move or a delete: wherever the cache still shows it.
    if (change.op === 'moved' || change.op === 'deleted') for (const key of listingsHolding(change.id)) add(key);

    if (own && change.kind === 'file' && FILE_CONTENT_OPS.has(change.op)) add(driveKeys.storage);
    if (own && change.kind === 'folder' && (change.op === 'deleted' || change.op === 'restored')) add(driveKeys.storage);
    if (own && (change.op === 'deleted' || change.op === 'restored')) add(trashKeys.all);
    if (change.kind === 'file' && change.op === 'updated') add(versionKeys.ofFile(change.id));
    if (change.kind === 'folder' && change.op !== 'created') {
      // A folder renamed, moved, gone or back: the paths shown through it (breadcrumbs), and
      // its own listings (an open folder that went to Trash says so).
      add(['drive', 'path']);
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

/** The listing keys a cached answer is under, when `key` is one of a folder's listings (sorted or not). */
export function listingKeyOf(key: QueryKey): QueryKey | null {
  const [area, kind, folder] = key;
  if (area !== driveKeys.all[0] || (kind !== 'files' && kind !== 'folders') || typeof folder !== 'string') return null;
  return [area, kind, folder];
}

/** Whether a listing's answer (a plain list or the pages of a sorted one) shows the item. */
export function listingHolds(data: unknown, itemId: string): boolean {
  const has = (list: unknown) => Array.isArray(list) && list.some((entry) => (entry as { id?: unknown } | null)?.id === itemId);
  if (Array.isArray(data)) return has(data);
  const pages = (data as { pages?: unknown } | null | undefined)?.pages;
  return Array.isArray(pages) && pages.some((page) => has((page as { items?: unknown } | null)?.items));
}
