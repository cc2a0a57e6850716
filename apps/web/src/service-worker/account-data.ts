/// <reference lib="webworker" />
import type { RouteHandlerCallbackOptions, WorkboxPlugin } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst, type Strategy } from 'workbox-strategies';
import { DEVICE_CACHES, DEVICE_COPY_HEADER, sessionCacheName } from '../lib/device-caches';

/**
 * The views the user opened lately, kept for when the network is gone: each answer below is
 * asked of the network first and stored; when the network does not answer, the stored one is
 * given, marked with DEVICE_COPY_HEADER so the page can say it is offline. Only 200 answers
 * are stored, and only in the caches of the session that asked (named after its token), so
 * an answer never reaches another account, even one arriving after sign-out; the page
 * deletes them all when a session starts or ends (lib/device-data.ts).
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
const THUMBNAIL_PATH = /^\/api\/files\/[^/]+\/thumbnail$/;

/** How many answers and thumbnails a session keeps: the least recently stored go first. */
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

const views = new ExpirationPlugin({ maxEntries: MAX_VIEWS, purgeOnQuotaError: true });
const thumbnails = new ExpirationPlugin({ maxEntries: MAX_THUMBNAILS, purgeOnQuotaError: true });

/** One strategy per session's cache, made when that session first asks. */
function perSession(cache: string, make: (cacheName: string) => Strategy) {
  const made = new Map<string, Strategy>();
  return async ({ request, event }: RouteHandlerCallbackOptions): Promise<Response> => {
    const authorization = request.headers.get('Authorization');
    // Nobody's session: nothing to keep, nothing to give from the device.
    if (!authorization) return fetch(request);
    const cacheName = await sessionCacheName(cache, authorization);
    let strategy = made.get(cacheName);
    if (!strategy) made.set(cacheName, (strategy = make(cacheName)));
    return strategy.handle({ request, event });
  };
}

function viewStrategy(cacheName: string): Strategy {
  return new NetworkFirst({ cacheName, plugins: [views, markDeviceCopy] });
}

function thumbnailStrategy(cacheName: string): Strategy {
  return new CacheFirst({ cacheName, plugins: [thumbnails] });
}

export function cacheAccountData(): void {
  registerRoute(({ url, sameOrigin }) => sameOrigin && isView(url), perSession(DEVICE_CACHES.data, viewStrategy));
  // A thumbnail's address names its content (`v=` the content tag): a stored one never goes stale.
  registerRoute(
    ({ url, sameOrigin }) => sameOrigin && THUMBNAIL_PATH.test(url.pathname) && url.searchParams.has('v'),
    perSession(DEVICE_CACHES.thumbnails, thumbnailStrategy),
  );
}
