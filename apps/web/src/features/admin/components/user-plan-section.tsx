import { useTranslation } from 'react-i18next';
import type { AdminUserDetailResponse } from '@cloudvault/contract/admin';
import { Badge } from '../../../components/ui/badge';
import { formatDay } from '../../../lib/dates';
import { formatAmount } from '../../../lib/money';
import { Detail, DetailList } from './detail-list';
import { Panel } from './page-states';

const billingTones = { paid: 'success', pending: 'warning', failed: 'danger' } as const;

/** The plan, where it comes from (a paid subscription or a grant by hand), and the billing records. */
export function UserPlanSection({ detail }: { detail: AdminUserDetailResponse }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const { user, subscription, complimentaryPlan, billingHistory, history } = detail;

  return (
    <Panel id="admin-user-plan-title" title={t('admin.detail.plan.title')}>
      <DetailList>
        <Detail term={t('admin.detail.plan.current')}>{t(`common.plans.${user.plan}`)}</Detail>
        <Detail term={t('admin.detail.plan.ends')}>
          {user.planEndsAt ? formatDay(user.planEndsAt, language) : t('admin.detail.none')}
        </Detail>
        <Detail term={t('admin.detail.plan.subscription')}>
          {subscription
            ? t('admin.detail.plan.subscriptionValue', {
                plan: t(`common.plans.${subscription.planId}`),
                status: t(`admin.detail.plan.statuses.${subscription.status}`),
              })
            : t('admin.detail.plan.noSubscription')}
        </Detail>
        {subscription && (
          <Detail term={t('admin.detail.plan.periodEnd')}>
            {formatDay(subscription.currentPeriodEnd, language)}
            {subscription.cancelAtPeriodEnd && (
              <span className="font-normal text-ink-muted"> · {t('admin.detail.plan.endsWithPeriod')}</span>
            )}
          </Detail>
        )}
      </DetailList>

      {complimentaryPlan && (
        <div className="mt-5 rounded-control border border-brand-200 bg-brand-50 p-4 text-sm dark:border-brand-800 dark:bg-brand-950">
          <p className="font-semibold text-brand-800 dark:text-brand-200">
            {t('admin.detail.plan.complimentary', {
              plan: t(`common.plans.${complimentaryPlan.planId}`),
              date: formatDay(complimentaryPlan.endsAt, language),
            })}
          </p>
          <p className="mt-1 text-brand-800/80 dark:text-brand-200/80">
            {t('admin.detail.plan.complimentaryReason', { reason: complimentaryPlan.reason })}
          </p>
        </div>
      )}

      <h3 className="mt-6 text-sm font-semibold text-ink">{t('admin.detail.plan.billing')}</h3>
      {billingHistory.length === 0 ? (
        <p className="mt-2 text-sm text-ink-muted">{t('admin.detail.plan.noBilling')}</p>
      ) : (
        <div className="mt-2 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{t('admin.detail.plan.billing')}</caption>
            <thead className="text-xs text-ink-muted">
              <tr>
                <th scope="col" className="py-1.5 pr-3 font-medium">
                  {t('admin.detail.plan.date')}
                </th>
                <th scope="col" className="px-3 py-1.5 text-right font-medium">
                  {t('admin.detail.plan.amount')}
                </th>
                <th scope="col" className="py-1.5 pl-3 font-medium">
                  {t('admin.detail.plan.status')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {billingHistory.map((item) => (
                <tr key={item.id}>
                  <td className="py-2 pr-3 text-ink">{formatDay(item.date, language)}</td>
                  <td className="px-3 py-2 text-right text-ink tabular-nums">{formatAmount(item.amount, item.currency)}</td>
                  <td className="py-2 pl-3">
                    <Badge tone={billingTones[item.status]}>{t(`admin.detail.plan.billingStatuses.${item.status}`)}</Badge>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {history.length > 0 && (
        <>
          <h3 className="mt-6 text-sm font-semibold text-ink">{t('admin.detail.plan.changes')}</h3>
          <ul className="mt-2 flex flex-col gap-1.5 text-sm">
            {history.map((entry) => (
              <li key={`${entry.date}-${entry.type}-${entry.planName}`} className="flex justify-between gap-3">
                <span className="text-ink">{t(`admin.detail.plan.changeTypes.${entry.type}`, { plan: entry.planName })}</span>
                <span className="shrink-0 text-ink-muted">{formatDay(entry.date, language)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </Panel>
  );
}
