import { Check, Minus } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Plan } from '@cloudvault/contract/plans';
import { cn } from '../../../lib/cn';
import { useFormatSize } from '../../../lib/format-size';

/** The plans side by side: storage, max file size, priority support, concurrent uploads ('Unlimited' for none). */
export function PlanComparison({ plans, currentPlanId }: { plans: readonly Plan[]; currentPlanId: Plan['id'] }) {
  const { t, i18n } = useTranslation();
  const formatSize = useFormatSize();
  const unlimited = t('subscription.comparison.unlimited');
  const rows: Array<{ label: string; cell: (plan: Plan) => ReactNode }> = [
    { label: t('subscription.comparison.storage'), cell: (plan) => formatSize(plan.storageLimit) },
    {
      label: t('subscription.comparison.maxFileSize'),
      cell: (plan) => (plan.maxFileSize === null ? unlimited : formatSize(plan.maxFileSize)),
    },
    {
      label: t('subscription.comparison.prioritySupport'),
      cell: (plan) =>
        plan.prioritySupport ? (
          <>
            <Check aria-hidden="true" className="mx-auto size-5 text-green-600 dark:text-green-400" />
            <span className="sr-only">{t('subscription.comparison.yes')}</span>
          </>
        ) : (
          <>
            <Minus aria-hidden="true" className="mx-auto size-5 text-ink-subtle" />
            <span className="sr-only">{t('subscription.comparison.no')}</span>
          </>
        ),
    },
    {
      label: t('subscription.comparison.concurrentUploads'),
      cell: (plan) => (plan.maxConcurrentUploads === null ? unlimited : plan.maxConcurrentUploads.toLocaleString(i18n.language)),
    },
  ];
  const highlight = (plan: Plan) => plan.id === currentPlanId && 'bg-brand-50/70 dark:bg-brand-950/50';

  return (
    <section aria-labelledby="comparison-title" className="min-w-0 rounded-card border border-line bg-surface shadow-card">
      <h2 id="comparison-title" className="px-5 pt-5 font-semibold text-ink sm:px-6 sm:pt-6">
        {t('subscription.comparison.title')}
      </h2>
      {/* A focusable scroller so keyboard users can scroll the table sideways on a narrow screen. */}
      <div
        role="region"
        aria-label={t('subscription.comparison.scrollLabel')}
        tabIndex={0}
        className="focus-ring relative mt-3 overflow-x-auto rounded-b-card"
      >
        <table className="w-full min-w-[30rem] border-collapse text-sm">
          <thead>
            <tr className="border-b border-line">
              <th scope="col" className="px-5 py-3 text-left font-medium text-ink-muted sm:px-6">
                {t('subscription.comparison.feature')}
              </th>
              {plans.map((plan) => (
                <th scope="col" key={plan.id} className={cn('px-4 py-3 text-center font-semibold text-ink', highlight(plan))}>
                  {plan.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {rows.map((row) => (
              <tr key={row.label}>
                <th scope="row" className="px-5 py-3 text-left font-medium text-ink sm:px-6">
                  {row.label}
                </th>
                {plans.map((plan) => (
                  <td key={plan.id} className={cn('px-4 py-3 text-center text-ink tabular-nums', highlight(plan))}>
                    {row.cell(plan)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
