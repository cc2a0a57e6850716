import { lazy, Suspense, useState } from 'react';
import { useLocation } from 'react-router';

// Only features toast (after an action or on their own page's load), and each of them
// imports react-hot-toast itself: the landing page has none, so its visitors never
// download the library (docs/decisions/0031-web-delivery.md). Toasts raised before the
// Toaster arrives wait in react-hot-toast's store and show when it mounts.
const Toaster = lazy(() => import('react-hot-toast').then((m) => ({ default: m.Toaster })));

/** Toast look from the design tokens (react-hot-toast styles inline, so classes would lose). */
const toastStyle = {
  background: 'var(--cv-surface)',
  color: 'var(--cv-ink)',
  border: '1px solid var(--cv-line)',
  borderRadius: 'var(--radius-control)',
  boxShadow: 'var(--shadow-popover)',
  fontSize: '0.875rem',
  lineHeight: '1.35',
  padding: '0.625rem 0.875rem',
  maxWidth: '24rem',
};

/** The app's toasts, mounted from the first page other than the landing page on. */
export function Toasts() {
  const { pathname } = useLocation();
  const [needed, setNeeded] = useState(pathname !== '/');
  if (!needed && pathname !== '/') setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      {/* docs/product.md#toasts: top-right; 4 s default, 3 s success, 5 s error; at most
          20 at once, which is react-hot-toast's built-in limit. */}
      <Toaster
        position="top-right"
        containerStyle={{ top: 76, right: 16 }}
        toastOptions={{
          duration: 4000,
          style: toastStyle,
          success: { duration: 3000 },
          error: { duration: 5000 },
        }}
      />
    </Suspense>
  );
}
