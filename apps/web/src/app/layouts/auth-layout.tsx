import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { ContentSpinner } from '../../components/ui/spinner';
import { Logo } from '../../components/ui/logo';

/** Sign-in and registration: a focused, centred card without the marketing navigation. */
export function AuthLayout() {
  const { t } = useTranslation();
  return (
    <div className="relative isolate flex min-h-dvh flex-col">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 top-0 -z-10 h-80 bg-gradient-to-b from-brand-100/70 to-transparent dark:from-brand-950/60"
      />
      <header className="flex justify-center px-5 pt-8 sm:pt-10">
        <Link to="/" className="focus-ring rounded-lg p-1">
          <Logo />
        </Link>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto flex w-full max-w-md flex-1 flex-col px-5 py-6 outline-none sm:py-8">
        <Suspense fallback={<ContentSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      <footer className="px-5 pb-8 text-center text-xs text-ink-subtle">
        {t('layout.footer.copyright', { year: new Date().getFullYear() })} · {t('layout.footer.studentProject')}
      </footer>
    </div>
  );
}
