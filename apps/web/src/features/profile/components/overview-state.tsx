import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { AccountOverviewResponse } from '@cloudvault/contract/profile';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';

/** The account overview once it has loaded; a spinner before, and a retry when it failed. */
export function OverviewState({
  query,
  children,
}: {
  query: UseQueryResult<AccountOverviewResponse>;
  children: (data: AccountOverviewResponse) => ReactNode;
}) {
  const { t } = useTranslation();
  if (query.data) return children(query.data);
  if (query.isError) {
    return (
      <div role="alert" className="flex flex-col items-start gap-3 text-sm text-ink-muted">
        <p>{t('profile.overviewFailed')}</p>
        <Button variant="secondary" size="sm" onClick={() => void query.refetch()}>
          {t('profile.retry')}
        </Button>
      </div>
    );
  }
  return (
    <div className="flex justify-center py-6">
      <Spinner label={t('ui.loading')} className="size-6 text-brand-600 dark:text-brand-400" />
    </div>
  );
}
