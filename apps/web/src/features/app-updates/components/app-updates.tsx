import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'react-router';

// The service worker exists in a production build only (vite.config.ts); the dev server and the
// unit tests have neither it nor the virtual module that registers it.
const UpdateBanner = import.meta.env.PROD ? lazy(() => import('./update-banner')) : null;

/**
 * Registers the service worker and announces a new version of the app, from the page's load
 * event on: neither the banner's chunk nor the registration competes with the page's first
 * paint (docs/decisions/0031-web-delivery.md). Not on the landing page: a visitor who only
 * reads it would download the whole app into the precache; from the first other page on
 * (sign-in, the app itself) the app is installable.
 */
export function AppUpdates() {
  const { pathname } = useLocation();
  const [needed, setNeeded] = useState(pathname !== '/');
  if (!needed && pathname !== '/') setNeeded(true);
  const [loaded, setLoaded] = useState(() => document.readyState === 'complete');
  useEffect(() => {
    if (loaded) return;
    const onLoad = () => setLoaded(true);
    window.addEventListener('load', onLoad, { once: true });
    return () => window.removeEventListener('load', onLoad);
  }, [loaded]);
  if (!UpdateBanner || !needed || !loaded || !('serviceWorker' in navigator)) return null;
  return (
    <Suspense fallback={null}>
      <UpdateBanner />
    </Suspense>
  );
}
