import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration } from 'react-router';
import { FullPageSpinner } from '../../components/ui/spinner';
import { AppUpdates } from '../../features/app-updates/components/app-updates';
import { Toasts } from './toasts';

/** Wraps every route: skip link, scroll restoration, toasts, the new-version notice, and a fallback while a layout loads. */
export function RootLayout() {
  const { t } = useTranslation();
  return (
    <>
      <a
        href="#main"
        className="sr-only z-[100] rounded-control bg-brand-600 px-4 py-2 text-sm font-semibold text-white focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
      >
        {t('layout.skipToContent')}
      </a>
      <Suspense fallback={<FullPageSpinner />}>
        <Outlet />
      </Suspense>
      <ScrollRestoration />
      <Toasts />
      <AppUpdates />
    </>
  );
}
