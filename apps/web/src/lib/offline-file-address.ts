/**
 * Where a file kept "available offline" lives on the device, shared by the page (which stores
 * it, lib/offline-files.ts) and the service worker (which answers it,
 * src/service-worker/offline-files.ts). A stable address per file: the server's download links
 * are signed for minutes, so none of them could be the key of a copy kept for months.
 */
export const OFFLINE_FILES_PATH = '/offline-files/';

/** The stored copy's address; the service worker answers it from DEVICE_CACHES.offlineFiles. */
export function offlineFileAddress(fileId: string): string {
  return `${OFFLINE_FILES_PATH}${encodeURIComponent(fileId)}`;
}

/** pdf.js's worker in the build (vite.config.ts leaves it out of the precache): a PDF kept offline needs it offline too. */
export const PDF_WORKER_PATH = /^\/assets\/pdf\.worker[^/]*\.mjs$/;

/** Carried by a stored copy: the content tag of the bytes it holds, so a newer version on the server is noticed. */
export const OFFLINE_CONTENT_TAG_HEADER = 'X-CloudVault-Content-Tag';
