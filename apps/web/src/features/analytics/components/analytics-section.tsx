import { useTranslation } from 'react-i18next';
import type { PlanId } from '@cloudvault/contract/plans';
import { includesAnalytics } from '../plan-access';
import { AnalyticsPreview } from './analytics-preview';
import { AnalyticsReport } from './analytics-report';

/** 'Analytics' of the Usage tab: the report on Business, a preview with an upgrade prompt elsewhere. */
export function AnalyticsSection({ plan }: { plan: PlanId }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="analytics-title" className="grid gap-4">
      <h2 id="analytics-title" className="text-lg font-semibold tracking-tight text-ink">
        {t('analytics.title')}
      </h2>
      {includesAnalytics(plan) ? <AnalyticsReport /> : <AnalyticsPreview />}
    </section>
  );
}
