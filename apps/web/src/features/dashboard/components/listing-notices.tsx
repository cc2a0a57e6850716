import { FolderX, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { folderHref } from '../../../lib/folder-href';

/** The open folder does not exist (deleted, or a stale address): a way home. */
export function MissingFolderNotice() {
  const { t } = useTranslation();
  return (
    <Notice icon={<FolderX aria-hidden="true" className="size-7" />} title={t('dashboard.folderMissing')}>
      <Link to={folderHref(null)} className={buttonClasses({ variant: 'secondary' })}>
        {t('dashboard.goHome')}
      </Link>
    </Notice>
  );
}

/** The listing could not be loaded: a retry. */
export function LoadFailedNotice({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Notice icon={<TriangleAlert aria-hidden="true" className="size-7" />} title={t('dashboard.loadFailed')}>
      <Button variant="secondary" onClick={onRetry}>
        {t('dashboard.retry')}
      </Button>
    </Notice>
  );
}

export function ListingLoading() {
  const { t } = useTranslation();
  return (
    <div role="status" className="flex min-h-64 flex-col items-center justify-center gap-3 text-sm text-ink-muted">
      <Spinner className="size-7 text-brand-600 dark:text-brand-400" />
      {t('dashboard.loading')}
    </div>
  );
}

function Notice({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <div role="alert" className="flex min-h-64 flex-col items-center justify-center gap-4 px-6 py-12 text-center">
      <span className="grid size-14 place-items-center rounded-2xl bg-surface-muted text-ink-muted">{icon}</span>
      <p className="max-w-sm text-sm font-medium text-ink">{title}</p>
      {children}
    </div>
  );
}
