import { SearchX } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClasses } from '../components/ui/button';
import { PageTitle } from '../components/ui/page-title';
import { cn } from '../lib/cn';

/**
 * A signed-in address with nothing for this user. Also what a non-operator sees at /admin:
 * the same page as for any unknown address, so the console is not advertised.
 */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle title={t('layout.notFound.title')} />
      <div className="mx-auto my-10 flex w-full max-w-md flex-col items-center rounded-card border border-line bg-surface px-6 py-10 text-center shadow-card sm:px-8">
        <span className="grid size-14 place-items-center rounded-2xl bg-surface-muted text-ink-muted">
          <SearchX aria-hidden="true" className="size-7" />
        </span>
        <h1 className="mt-5 text-xl font-bold tracking-tight text-ink">{t('layout.notFound.title')}</h1>
        <p className="mt-2 text-sm text-ink-muted">{t('layout.notFound.body')}</p>
        <Link to="/dashboard" className={cn(buttonClasses({ variant: 'secondary' }), 'mt-6')}>
          {t('layout.notFound.home')}
        </Link>
      </div>
    </>
  );
}
