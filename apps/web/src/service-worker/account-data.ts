/// <reference lib="webworker" />
import type { WorkboxPlugin } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst } from 'workbox-strategies';
import { DEVICE_CACHES, DEVICE_COPY_HEADER } from '../lib/device-caches';

/**
 * The views the user opened lately, kept for when the network is gone: each answer below is
 * asked of the network first and stored; when the network does not answer, the stored one is
 * given, marked with DEVICE_COPY_HEADER so the page can say it is offline. Only 200 answers
 * are stored. Whatever is stored belongs to the signed-in account: the page deletes these
 * caches when its session starts or ends (lib/device-caches.ts).
 */
const VIEW_PATHS: RegExp[] = [
  /^\/api\/auth\/profile$/,
  /^\/api\/user\/(settings|dashboard)$/,
  /^\/api\/files\/upload-config$/,
  /^\/api\/(recent|starred|notifications)$/,
  /^\/api\/user\/folders$/,
  /^\/api\/user\/folders\/[^/]+\/path$/,
  /^\/api\/files$/,
];

/** How many answers and thumbnails a device keeps: the least recently stored go first. */
const MAX_VIEWS = 300;
const MAX_THUMBNAILS = 2000;

function isView(url: URL): boolean {
  // A search is not a place the user goes back to.
  return VIEW_PATHS.some((path) => path.test(url.pathname)) && !url.searchParams.has('search');
}

const markDeviceCopy: WorkboxPlugin = {
  async cachedResponseWillBeUsed({ cachedResponse }) {
    if (!cachedResponse) return null;
    const headers = new Headers(cachedResponse.headers);
    headers.set(DEVICE_COPY_HEADER, '1');
    return new Response(cachedResponse.body, { status: cachedResponse.status, statusText: cachedResponse.statusText, headers });
  },
};

export function cacheAccountData(): void {
  registerRoute(
    ({ url, sameOrigin }) => sameOrigin && isView(url),
    new NetworkFirst({
      cacheName: DEVICE_CACHES.data,
      plugins: [new ExpirationPlugin({ maxEntries: MAX_VIEWS, purgeOnQuotaError: true }), markDeviceCopy],
    }),
  );
  // A thumbnail's address names its content (`v=` the content tag): a stored one never goes stale.
  registerRoute(
    ({ url, sameOrigin }) => sameOrigin && /^\/api\/files\/[^/]+\/thumbnail$/.test(url.pathname) && url.searchParams.has('v'),
    new CacheFirst({
      cacheName: DEVICE_CACHES.thumbnails,
      plugins: [new ExpirationPlugin({ maxEntries: MAX_THUMBNAILS, purgeOnQuotaError: true })],
    }),
  );
}
