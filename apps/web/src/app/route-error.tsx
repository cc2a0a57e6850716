import { TriangleAlert } from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { Button } from '../components/ui/button';

/** Shown instead of a blank page when rendering or loading a page fails (a stale chunk after a deploy…). */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();

  useEffect(() => {
    console.error(error);
  }, [error]);

  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-6 text-center">
      <span className="grid size-12 place-items-center rounded-full bg-danger-soft text-danger">
        <TriangleAlert aria-hidden="true" className="size-6" />
      </span>
      <h1 className="text-xl font-semibold text-ink">{t('layout.error.title')}</h1>
      <p className="max-w-sm text-sm text-ink-muted">{t('layout.error.message')}</p>
      <Button onClick={() => window.location.reload()}>{t('layout.error.reload')}</Button>
    </main>
  );
}
