import { TrendingUp, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import { formatPrice } from '../../../lib/money';
import { displayPercent } from '../../../lib/storage-usage';
import type { PlanActionBusy } from '../hooks/use-plan-actions';
import type { Recommendation } from '../recommendation';
import { useFormatSize } from '../../../lib/format-size';

interface RecommendationCardProps {
  recommendation: Recommendation;
  percent: number;
  storageLimit: number;
  busy: PlanActionBusy;
  onUpgrade: (planId: NonNullable<Recommendation['plan']>['id']) => void;
}

/** 'Upgrade Recommended' from 80 % (50 % on Free), 'Storage Almost Full!' from 90 %, offering the next larger plan. */
export function RecommendationCard({ recommendation, percent, storageLimit, busy, onUpgrade }: RecommendationCardProps) {
  const { t, i18n } = useTranslation();
  const formatSize = useFormatSize();
  const { level, plan } = recommendation;
  const almostFull = level === 'almostFull';
  const Icon = almostFull ? TriangleAlert : TrendingUp;
  const processing = busy?.kind === 'plan' && busy.planId === plan?.id;

  return (
    <section
      aria-labelledby="recommendation-title"
      className={cn(
        'flex flex-col gap-4 rounded-card border p-5 sm:flex-row sm:items-center sm:justify-between sm:p-6',
        almostFull
          ? 'border-red-200 bg-red-50 dark:border-red-400/30 dark:bg-red-500/10'
          : 'border-brand-200 bg-brand-50 dark:border-brand-800 dark:bg-brand-950/60',
      )}
    >
      <div className="flex items-start gap-3">
        <Icon
          aria-hidden="true"
          className={cn('mt-0.5 size-5 shrink-0', almostFull ? 'text-red-600 dark:text-red-300' : 'text-brand-600 dark:text-brand-300')}
        />
        <div>
          <h2 id="recommendation-title" className="font-semibold text-ink">
            {t(`subscription.recommendation.${level}`)}
          </h2>
          <p className="mt-1 text-sm text-ink-muted">
            {t('subscription.recommendation.usage', { percent: displayPercent(percent), limit: formatSize(storageLimit) })}{' '}
            {plan
              ? t('subscription.recommendation.offer', {
                  plan: plan.name,
                  storage: formatSize(plan.storageLimit),
                  price: formatPrice(plan.price, i18n.language),
                })
              : t('subscription.recommendation.noOffer')}
          </p>
        </div>
      </div>
      {plan && (
        <Button className="shrink-0" loading={processing} disabled={busy !== null} onClick={() => onUpgrade(plan.id)}>
          {processing ? t('subscription.plans.processing') : t('subscription.plans.upgradeTo', { plan: plan.name })}
        </Button>
      )}
    </section>
  );
}
