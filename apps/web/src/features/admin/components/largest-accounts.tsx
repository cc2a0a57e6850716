import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { AdminStatsResponse } from '@cloudvault/contract/admin';
import { useFormatSize } from '../../../lib/format-size';
import { Panel } from './page-states';

/** The ten accounts using the most storage, each a link to its detail. */
export function LargestAccounts({ accounts }: { accounts: AdminStatsResponse['largestAccounts'] }) {
  const { t } = useTranslation();
  const formatSize = useFormatSize();
  const largest = accounts[0]?.storageUsed ?? 0;
  return (
    <Panel id="admin-largest-title" title={t('admin.largest.title')}>
      {accounts.length === 0 ? (
        <p className="text-sm text-ink-muted">{t('admin.largest.empty')}</p>
      ) : (
        <ol className="flex flex-col gap-3">
          {accounts.map((account) => (
            <li key={account.id} className="min-w-0">
              <div className="flex items-baseline justify-between gap-3 text-sm">
                <Link
                  to={`/admin/users/${account.id}`}
                  className="focus-ring min-w-0 truncate rounded-sm font-medium text-ink hover:text-brand-700 hover:underline dark:hover:text-brand-300"
                >
                  {account.firstName} {account.lastName}
                  <span className="sr-only">, {account.email}</span>
                </Link>
                <span className="shrink-0 text-ink-muted tabular-nums">
                  {formatSize(account.storageUsed)} · {t(`common.plans.${account.plan}`)}
                </span>
              </div>
              <div aria-hidden="true" className="mt-1.5 h-1.5 overflow-hidden rounded-full bg-surface-muted">
                <div
                  className="h-full rounded-full bg-brand-500"
                  style={{ width: `${largest > 0 ? Math.max(2, (account.storageUsed / largest) * 100) : 0}%` }}
                />
              </div>
            </li>
          ))}
        </ol>
      )}
    </Panel>
  );
}
