import { TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { serverErrorMessage } from '../../../lib/api-client';

/** A console page's heading and the line under it: every page has one h1. */
export function AdminHeading({ title, subtitle, children }: { title: string; subtitle?: string; children?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-3">
      <div className="min-w-0">
        <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">{title}</h1>
        {subtitle && <p className="mt-1 text-sm text-ink-muted">{subtitle}</p>}
      </div>
      {children}
    </div>
  );
}

export function LoadingState() {
  const { t } = useTranslation();
  return (
    <div role="status" className="flex min-h-60 flex-col items-center justify-center gap-3 text-sm text-ink-muted">
      <Spinner className="size-7 text-brand-600 dark:text-brand-400" />
      {t('admin.loading')}
    </div>
  );
}

/** A failed load, with the server's reason when it gave one, and a way to try again. */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div role="alert" className="flex min-h-60 flex-col items-center justify-center gap-4 text-center">
      <TriangleAlert aria-hidden="true" className="size-7 text-danger" />
      <p className="max-w-md text-sm font-medium text-ink">{serverErrorMessage(error) ?? t('admin.loadFailed')}</p>
      <Button variant="secondary" onClick={onRetry}>
        {t('admin.retry')}
      </Button>
    </div>
  );
}

/** A titled card; a region named by its heading. */
export function Panel({
  id,
  title,
  description,
  className,
  children,
}: {
  id: string;
  title: string;
  description?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={id}
      className={`min-w-0 rounded-card border border-line bg-surface p-5 shadow-card sm:p-6 ${className ?? ''}`}
    >
      <h2 id={id} className="font-semibold text-ink">
        {title}
      </h2>
      {description && <p className="mt-1 text-sm text-ink-muted">{description}</p>}
      <div className="mt-4">{children}</div>
    </section>
  );
}
