/**
 * Files shared into the app from the phone's share sheet, as the service worker keeps them
 * (src/service-worker/share-target.ts) and the /share page reads them (src/features/share-in),
 * in the cache DEVICE_CACHES.sharedIn: one entry per file, under `/share-in/<batch>/<index>`,
 * the batch id starting with the time it arrived.
 */

/** Where the manifest's share_target posts the shared files. */
export const SHARE_TARGET_PATH = '/share-target';

/** The page that receives them: `?batch=<id>`, or nothing when nothing was kept. */
export const SHARE_PAGE = '/share';

/** A batch not picked up within a day is forgotten. */
export const SHARE_BATCH_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** What each stored file's response carries besides its Content-Type. */
export const SHARED_FILE_HEADERS = {
  /** The file's name, percent-encoded (a header holds Latin-1 only). */
  name: 'X-Shared-Name',
  /** Its size in bytes. */
  size: 'X-Shared-Size',
} as const;

const BATCH_ID = /^(\d{13})-[0-9a-f-]{36}$/;

/** The cache key of a batch's `index`-th file. */
export function sharedFileKey(batch: string, index: number): string {
  return `/share-in/${batch}/${index}`;
}

/** The batch a cache key (a full URL) belongs to; null for a key of another shape. */
export function batchOfKey(url: string): string | null {
  return /^\/share-in\/([^/]+)\/\d+$/.exec(new URL(url).pathname)?.[1] ?? null;
}

/** When a batch arrived, in ms since the epoch, read from its id; null for anything that is no batch id. */
export function arrivedAt(batch: string): number | null {
  const time = BATCH_ID.exec(batch)?.[1];
  return time === undefined ? null : Number(time);
}
