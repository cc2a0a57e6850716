/// <reference lib="webworker" />
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { cacheAccountData } from './account-data';
import { serveOfflineFiles } from './offline-files';
import { receiveSharedFiles } from './share-target';

/**
 * The app's service worker (docs/decisions/0065-installable-app.md and 0066): vite-plugin-pwa
 * builds it with Workbox and injects the precache manifest below.
 */
declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (PrecacheEntry | string)[] };

// The app shell: index.html and the hashed assets of one build, installed and replaced together,
// so an old index.html never meets new assets or the reverse. An older version's are deleted.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

serveOfflineFiles();

// The app's own navigations open the precached index.html (the router decides, as on the
// server), except every path the server answers itself (apps/server/src/app.ts): the API,
// WebDAV, the metrics, and files such as /robots.txt. No app route has a dot in its last segment.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('index.html'), {
    denylist: [/^\/api(\/|\?|$)/, /^\/dav(\/|\?|$)/, /^\/metrics(\?|$)/, /^\/(?:[^/?]+\/)*[^/?]+\.[^/?]+(\?|$)/],
  }),
);

cacheAccountData();
receiveSharedFiles();

// A new version waits until the user accepts it ("Reload to update", src/features/app-updates).
self.addEventListener('message', (event: ExtendableMessageEvent) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
