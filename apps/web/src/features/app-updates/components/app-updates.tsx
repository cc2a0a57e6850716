import { lazy, Suspense, useEffect, useState } from 'react';

// The service worker exists in a production build only (vite.config.ts); the dev server and the
// unit tests have neither it nor the virtual module that registers it.
const UpdateBanner = import.meta.env.PROD ? lazy(() => import('./update-banner')) : null;

/**
 * Registers the service worker and announces a new version of the app, from the page's load
 * event on: neither the banner's chunk nor the registration competes with the page's first
 * paint (docs/decisions/0031-web-delivery.md).
 */
export function AppUpdates() {
  const [loaded, setLoaded] = useState(() => document.readyState === 'complete');
  useEffect(() => {
    if (loaded) return;
    const onLoad = () => setLoaded(true);
    window.addEventListener('load', onLoad, { once: true });
    return () => window.removeEventListener('load', onLoad);
  }, [loaded]);
  if (!UpdateBanner || !loaded || !('serviceWorker' in navigator)) return null;
  return (
    <Suspense fallback={null}>
      <UpdateBanner />
    </Suspense>
  );
}
