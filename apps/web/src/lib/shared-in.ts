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

/** Whether `batch` has the shape of a batch id (the page's address may carry anything). */
export function isBatchId(batch: string): boolean {
  return BATCH_ID.test(batch);
}

/** The cache key of a batch's `index`-th file. */
export function sharedFileKey(batch: string, index: number): string {
  return `/share-in/${batch}/${index}`;
}

/** Whether a cache key (a full URL) belongs to `batch`. */
export function inBatch(url: string, batch: string): boolean {
  return new URL(url).pathname.startsWith(`/share-in/${batch}/`);
}

/** When the batch of a cache key (a full URL) arrived, in ms since the epoch; null for a key of another shape. */
export function batchTime(url: string): number | null {
  const match = /^\/share-in\/([^/]+)\//.exec(new URL(url).pathname);
  const time = match?.[1] === undefined ? undefined : BATCH_ID.exec(match[1])?.[1];
  return time === undefined ? null : Number(time);
}
