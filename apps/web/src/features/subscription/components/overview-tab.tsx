import type { Plan } from '@cloudvault/contract/plans';
import type { CurrentSubscriptionResponse } from '@cloudvault/contract/subscriptions';
import { usagePercent } from '../../../lib/storage-usage';
import type { PlanActionBusy } from '../hooks/use-plan-actions';
import { recommendation } from '../recommendation';
import { CurrentPlanCard } from './current-plan-card';
import { RecentChanges } from './recent-changes';
import { RecommendationCard } from './recommendation-card';

interface OverviewTabProps {
  current: CurrentSubscriptionResponse;
  plans: readonly Plan[];
  busy: PlanActionBusy;
  onChangePlan: (planId: Plan['id']) => void;
  onOpenUpgrade: () => void;
  onOpenCancel: () => void;
}

/** Overview: the current plan and its actions, the storage recommendation, and recent changes. */
export function OverviewTab({ current, plans, busy, onChangePlan, onOpenUpgrade, onOpenCancel }: OverviewTabProps) {
  const percent = usagePercent(current.storageUsed, current.storageLimit);
  const advice = recommendation({ percent, planId: current.plan, storageLimit: current.storageLimit }, plans);

  return (
    <div className="grid gap-6 lg:grid-cols-3 lg:items-start">
      <div className="grid gap-6 lg:col-span-2">
        <CurrentPlanCard current={current} onUpgrade={onOpenUpgrade} onCancel={onOpenCancel} />
        {advice && (
          <RecommendationCard
            recommendation={advice}
            percent={percent}
            storageLimit={current.storageLimit}
            busy={busy}
            onUpgrade={onChangePlan}
          />
        )}
      </div>
      <RecentChanges history={current.history} />
    </div>
  );
}
