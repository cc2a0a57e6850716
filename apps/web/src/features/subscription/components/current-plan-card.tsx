import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CurrentSubscriptionResponse } from '@cloudvault/contract/subscriptions';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { formatDay } from '../../../lib/dates';
import { formatPrice } from '../../../lib/money';
import { useReactivateSubscription } from '../api/reactivate-subscription';
import { canCancel, canUpgradeFromOverview, endsWithPeriod, isComplimentary } from '../subscription-state';
import { ComplimentaryNotice } from './complimentary-notice';
import { EndingNotice } from './ending-notice';
import { StatusBadge } from './status-badge';
import { useFormatSize } from '../../../lib/format-size';
import { notify } from '../../../lib/notify';

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-ink-muted">{term}</dt>
      <dd className="mt-1 text-sm font-semibold text-ink">{children}</dd>
    </div>
  );
}

interface CurrentPlanCardProps {
  current: CurrentSubscriptionResponse;
  onUpgrade: () => void;
  onCancel: () => void;
}

/** The Overview's plan: name, status, price, storage, the next bill, and what can be done. */
export function CurrentPlanCard({ current, onUpgrade, onCancel }: CurrentPlanCardProps) {
  const { t, i18n } = useTranslation();
  const formatSize = useFormatSize();
  const { subscription, planDetails } = current;
  const showUpgrade = canUpgradeFromOverview(subscription);
  const showCancel = canCancel(subscription);
  const complimentary = isComplimentary(subscription);
  // Here rather than in the notice: the notice is gone once the reactivation is read back,
  // and a mutation's callbacks do not run for an unmounted component.
  const reactivate = useReactivateSubscription();
  const onReactivate = () =>
    reactivate.mutate(undefined, {
      onSuccess: () => notify.success('subscription.toast.reactivated'),
      onError: (error) => notify.error('subscription.toast.reactivateFailed', { error }),
    });

  return (
    <section aria-labelledby="current-plan-title" className="rounded-card border border-line bg-surface p-5 shadow-card sm:p-6">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-sm font-medium text-ink-muted">{t('subscription.overview.currentPlan')}</p>
          <h2 id="current-plan-title" className="mt-0.5 truncate text-2xl font-bold tracking-tight text-ink">
            {planDetails.name}
          </h2>
        </div>
        <div className="flex shrink-0 flex-wrap justify-end gap-1.5">
          {complimentary && <Badge tone="brand">{t('subscription.complimentary.badge')}</Badge>}
          <StatusBadge subscription={subscription} />
        </div>
      </div>

      {subscription && complimentary && (
        <div className="mt-5">
          <ComplimentaryNotice endsAt={subscription.currentPeriodEnd} planName={planDetails.name} />
        </div>
      )}

      {subscription && endsWithPeriod(subscription) && (
        <div className="mt-5">
          <EndingNotice
            endsAt={subscription.currentPeriodEnd}
            planName={planDetails.name}
            reactivating={reactivate.isPending}
            onReactivate={onReactivate}
          />
        </div>
      )}

      <dl className="mt-5 grid grid-cols-2 gap-x-4 gap-y-4 sm:grid-cols-3">
        <Detail term={t('subscription.overview.price')}>
          {formatPrice(planDetails.price, i18n.language)}
          <span className="font-normal text-ink-muted">{t('common.perMonth')}</span>
        </Detail>
        <Detail term={t('subscription.overview.storage')}>
          {t('subscription.overview.storageUsage', { used: formatSize(current.storageUsed), limit: formatSize(current.storageLimit) })}
        </Detail>
        {subscription?.nextBillingDate && (
          <Detail term={t('subscription.overview.nextBilling')}>{formatDay(subscription.nextBillingDate, i18n.language)}</Detail>
        )}
      </dl>

      {(showUpgrade || showCancel) && (
        <div className="mt-6 flex flex-col gap-2 border-t border-line pt-5 sm:flex-row">
          {showUpgrade && <Button onClick={onUpgrade}>{t('subscription.overview.upgrade')}</Button>}
          {showCancel && (
            <Button variant="ghost" onClick={onCancel} className="text-danger hover:bg-danger-soft hover:text-danger">
              {t('subscription.overview.cancel')}
            </Button>
          )}
        </div>
      )}
    </section>
  );
}
