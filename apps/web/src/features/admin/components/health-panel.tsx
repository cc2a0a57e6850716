import { CircleCheck, CircleX } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { AdminStatsResponse } from '@cloudvault/contract/admin';
import { Badge } from '../../../components/ui/badge';
import { formatCount } from '../figures';
import { Panel } from './page-states';

type Health = AdminStatsResponse['health'];

function StateBadge({ state }: { state: 'ok' | 'error' }) {
  const { t } = useTranslation();
  const Icon = state === 'ok' ? CircleCheck : CircleX;
  return (
    <Badge tone={state === 'ok' ? 'success' : 'danger'}>
      <Icon aria-hidden="true" className="size-3.5" />
      {t(`admin.health.${state}`)}
    </Badge>
  );
}

/** Whether the database and blob store answer, and how the mail and job queues are doing. */
export function HealthPanel({ health }: { health: Health }) {
  const { t, i18n } = useTranslation();
  const count = (value: number) => formatCount(value, i18n.language);
  return (
    <Panel id="admin-health-title" title={t('admin.health.title')}>
      <dl className="grid gap-3 text-sm">
        <div className="flex items-center justify-between gap-3">
          <dt className="text-ink-muted">{t('admin.health.database')}</dt>
          <dd>
            <StateBadge state={health.database} />
          </dd>
        </div>
        <div className="flex items-center justify-between gap-3">
          <dt className="text-ink-muted">{t('admin.health.blobStore')}</dt>
          <dd>
            <StateBadge state={health.blobStore} />
          </dd>
        </div>
        <div className="flex items-center justify-between gap-3">
          <dt className="text-ink-muted">{t('admin.health.mailQueue')}</dt>
          <dd className={health.mailQueue.failing > 0 ? 'font-semibold text-danger' : 'text-ink'}>
            {t('admin.health.mailFigures', { pending: count(health.mailQueue.pending), failing: count(health.mailQueue.failing) })}
          </dd>
        </div>
      </dl>
      <div className="mt-5 overflow-x-auto">
        <table className="w-full text-left text-sm">
          <caption className="mb-2 text-left text-sm font-medium text-ink">{t('admin.health.jobs')}</caption>
          <thead className="text-xs text-ink-muted">
            <tr>
              <th scope="col" className="py-1.5 pr-3 font-medium">
                {t('admin.health.job')}
              </th>
              <th scope="col" className="px-2 py-1.5 text-right font-medium">
                {t('admin.health.queued')}
              </th>
              <th scope="col" className="px-2 py-1.5 text-right font-medium">
                {t('admin.health.active')}
              </th>
              <th scope="col" className="py-1.5 pl-2 text-right font-medium">
                {t('admin.health.failed')}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {health.jobs.length === 0 ? (
              <tr>
                <td colSpan={4} className="py-2 text-ink-muted">
                  {t('admin.health.noJobs')}
                </td>
              </tr>
            ) : (
              health.jobs.map((job) => (
                <tr key={job.name}>
                  <th scope="row" className="py-2 pr-3 font-mono text-xs font-normal text-ink">
                    {job.name}
                  </th>
                  <td className="px-2 py-2 text-right text-ink tabular-nums">{count(job.queued)}</td>
                  <td className="px-2 py-2 text-right text-ink tabular-nums">{count(job.active)}</td>
                  <td className={`py-2 pl-2 text-right tabular-nums ${job.failed > 0 ? 'font-semibold text-danger' : 'text-ink'}`}>
                    {count(job.failed)}
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}
