/// <reference lib="webworker" />
import { registerRoute } from 'workbox-routing';
import { ExpirationPlugin } from 'workbox-expiration';
import { RangeRequestsPlugin } from 'workbox-range-requests';
import { CacheFirst, CacheOnly } from 'workbox-strategies';
import { DEVICE_CACHES } from '../lib/device-caches';
import { OFFLINE_FILES_PATH, PDF_WORKER_PATH } from '../lib/offline-file-address';

/**
 * pdf.js's worker, which the precache leaves out (docs/decisions/0065-installable-app.md): kept
 * once a PDF was opened or kept offline, so that a PDF kept offline opens offline. It is the
 * app's, not an account's: not a `cloudvault-` cache, it stays at sign-out. Its name is
 * hashed, so the one kept is never stale, and a new build's replaces it.
 */
const PDF_WORKER_CACHE = 'pdfjs-worker';

/**
 * The files the user marked "available offline" (docs/decisions/0066-offline-and-sharing-in.md),
 * answered from the device at their stable address, with or without a network: the page
 * stores each one there (lib/offline-files.ts) and loads it from there only while this worker
 * controls it. An address with no stored copy is a plain 404, never the network's page.
 * A `Range` request (a video seeking, pdf.js reading pages) is answered from the copy found with
 * a 206, sliced from the stored Blob, which Cache Storage keeps on disk.
 * Registered before the navigation route: a download of a copy (`<a download>`) is a navigation.
 */
export function serveOfflineFiles(): void {
  const fromDevice = new CacheOnly({ cacheName: DEVICE_CACHES.offlineFiles, plugins: [new RangeRequestsPlugin()] });
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
  registerRoute(
    ({ url, sameOrigin }) => sameOrigin && PDF_WORKER_PATH.test(url.pathname),
    new CacheFirst({ cacheName: PDF_WORKER_CACHE, plugins: [new ExpirationPlugin({ maxEntries: 1 })] }),
  );
}
