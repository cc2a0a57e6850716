/// <reference lib="webworker" />
import type { WorkboxPlugin } from 'workbox-core';
import { registerRoute } from 'workbox-routing';
import { CacheOnly } from 'workbox-strategies';
import { DEVICE_CACHES } from '../lib/device-caches';
import { OFFLINE_FILES_PATH } from '../lib/offline-file-address';

/**
 * Answers a `Range` request from a stored copy as the server would (206 with Content-Range,
 * 416 when unsatisfiable): a video seeks and pdf.js reads pages by ranges. The body is a slice
 * of the stored response's Blob, which Cache Storage keeps on disk: no file is read whole into
 * memory. (workbox-range-requests does the same; it is not among the web app's dependencies.)
 */
export async function partialAnswer(range: string, stored: Response): Promise<Response> {
  const body = await stored.blob();
  const match = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
  const size = body.size;
  let start = match?.[1] ? Number(match[1]) : NaN;
  let end = match?.[2] ? Number(match[2]) : NaN;
  if (Number.isNaN(start) && !Number.isNaN(end)) {
    // A suffix: the last `end` bytes.
    start = Math.max(size - end, 0);
    end = size - 1;
  } else if (Number.isNaN(end)) {
    end = size - 1;
  }
  if (!match || Number.isNaN(start) || start > end || start >= size) {
    return new Response(null, { status: 416, headers: { 'Content-Range': `bytes */${size}` } });
  }
  end = Math.min(end, size - 1);
  const headers = new Headers(stored.headers);
  headers.set('Content-Range', `bytes ${start}-${end}/${size}`);
  headers.set('Content-Length', String(end - start + 1));
  return new Response(body.slice(start, end + 1), { status: 206, statusText: 'Partial Content', headers });
}

/** The cache is matched by address alone: a request's Range is answered here, from the copy found. */
const answerRanges: WorkboxPlugin = {
  async cachedResponseWillBeUsed({ request, cachedResponse }) {
    const range = request.headers.get('range');
    if (!cachedResponse || !range) return cachedResponse ?? null;
    return partialAnswer(range, cachedResponse);
  },
};

/**
 * The files the user marked "available offline" (docs/decisions/0066-offline-and-sharing-in.md),
 * answered from the device at their stable address, with or without a network: the page
 * stores each one there (lib/offline-files.ts) and loads it from there only while this worker
 * controls it. An address with no stored copy is a plain 404, never the network's page.
 * Registered before the navigation route: a download of a copy (`<a download>`) is a navigation.
 */
export function serveOfflineFiles(): void {
  const fromDevice = new CacheOnly({ cacheName: DEVICE_CACHES.offlineFiles, plugins: [answerRanges] });
  registerRoute(
    ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith(OFFLINE_FILES_PATH),
    async (options) => {
      try {
        return await fromDevice.handle(options);
      } catch {
        return new Response(null, { status: 404 });
      }
    },
  );
}
