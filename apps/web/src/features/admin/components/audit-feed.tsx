import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { serverErrorMessage } from '../../../lib/api-client';
import { useAudit } from '../api/get-audit';
import { AuditList } from './audit-list';
import { ErrorState, LoadingState } from './page-states';

/** The audit log (all of it, or one user's), a page at a time with "Load more". */
export function AuditFeed({ targetId }: { targetId: string | null }) {
  const { t } = useTranslation();
  const audit = useAudit(targetId);
  if (audit.isError && !audit.data) return <ErrorState error={audit.error} onRetry={() => void audit.refetch()} />;
  if (!audit.data) return <LoadingState />;
  const entries = audit.data.pages.flatMap((page) => page.entries);
  if (entries.length === 0) return <p className="text-sm text-ink-muted">{t('admin.audit.empty')}</p>;
  return (
    <div className="flex flex-col gap-4">
      <AuditList entries={entries} showTarget={targetId === null} />
      {audit.isFetchNextPageError && (
        <p role="alert" className="text-center text-sm text-danger">
          {serverErrorMessage(audit.error) ?? t('admin.loadFailed')}
        </p>
      )}
      {audit.hasNextPage && (
        <div className="flex justify-center">
          <Button variant="secondary" loading={audit.isFetchingNextPage} onClick={() => void audit.fetchNextPage()}>
            {t('admin.audit.loadMore')}
          </Button>
        </div>
      )}
    </div>
  );
}
