import { lazy, Suspense, useState } from 'react';
import { useLocation } from 'react-router';

// Only features toast (after an action or on their own page's load), and each of them
// imports react-hot-toast itself: the landing page has none, so its visitors never
// download the library (docs/decisions/0031-web-delivery.md). Toasts raised before the
// stack arrives wait in react-hot-toast's store and show when it mounts.
const ToastStack = lazy(() => import('./toast-stack'));

/** The app's toasts, mounted from the first page other than the landing page on. */
export function Toasts() {
  const { pathname } = useLocation();
  const [needed, setNeeded] = useState(pathname !== '/');
  if (!needed && pathname !== '/') setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <ToastStack />
    </Suspense>
  );
}
