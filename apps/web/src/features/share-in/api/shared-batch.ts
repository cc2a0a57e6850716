import { queryOptions, useQuery } from '@tanstack/react-query';
import { DEVICE_CACHES } from '../../../lib/device-caches';
import { arrivedAt, batchOfKey, SHARE_BATCH_MAX_AGE_MS, SHARED_FILE_HEADERS } from '../../../lib/shared-in';

/**
 * The files the phone's share sheet sent, as the service worker kept them on this device
 * (src/service-worker/share-target.ts, lib/shared-in.ts). Each is read back as the browser's
 * blob of the stored response: on disk, not read into memory.
 */

/** The files of `batch` in the order they were shared; none for an unknown, expired or malformed batch, or without Cache Storage. */
export async function readSharedBatch(batch: string): Promise<File[]> {
  const arrived = arrivedAt(batch);
  if (arrived === null || typeof caches === 'undefined') return [];
  if (Date.now() - arrived > SHARE_BATCH_MAX_AGE_MS) {
    await discardSharedBatch(batch);
    return [];
  }
  const cache = await caches.open(DEVICE_CACHES.sharedIn);
  const keys = (await cache.keys()).filter((request) => batchOfKey(request.url) === batch);
  const index = (request: Request) => Number(new URL(request.url).pathname.split('/').at(-1));
  keys.sort((a, b) => index(a) - index(b));
  const files = await Promise.all(
    keys.map(async (request) => {
      const response = await cache.match(request);
      if (!response) return null;
      const name = decodeURIComponent(response.headers.get(SHARED_FILE_HEADERS.name) ?? '');
      const blob = await response.blob();
      return new File([blob], name, { type: response.headers.get('Content-Type') ?? '' });
    }),
  );
  return files.filter((file): file is File => file !== null);
}

/** Deletes the batch from the device: uploaded, dismissed or expired. */
export async function discardSharedBatch(batch: string): Promise<void> {
  if (typeof caches === 'undefined') return;
  const cache = await caches.open(DEVICE_CACHES.sharedIn);
  const keys = (await cache.keys()).filter((request) => batchOfKey(request.url) === batch);
  await Promise.all(keys.map((request) => cache.delete(request)));
}

export function sharedBatchQueryOptions(batch: string | null) {
  return queryOptions({
    // The device's copy, not the server's: under its own key, which no change to the drive touches.
    queryKey: ['share-in', batch ?? ''] as const,
    queryFn: () => (batch === null ? Promise.resolve([]) : readSharedBatch(batch)),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
}

/** The batch's files, read once per visit of the page. */
export function useSharedBatch(batch: string | null) {
  return useQuery(sharedBatchQueryOptions(batch));
}
