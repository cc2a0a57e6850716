import { useTranslation } from 'react-i18next';
import type { Plan } from '@cloudvault/contract/plans';
import type { PlanActionBusy } from '../hooks/use-plan-actions';
import { planRelation } from '../plan-relation';
import { PlanCard } from './plan-card';
import { PlanComparison } from './plan-comparison';

interface PlansTabProps {
  plans: readonly Plan[];
  currentPlanId: Plan['id'];
  busy: PlanActionBusy;
  onChangePlan: (planId: Plan['id']) => void;
  onManageBilling: () => void;
}

/** Plans: a card per plan with what the user can do with it, then the comparison table. */
export function PlansTab({ plans, currentPlanId, busy, onChangePlan, onManageBilling }: PlansTabProps) {
  const { t } = useTranslation();
  const currentPlan = plans.find((plan) => plan.id === currentPlanId) ?? null;

  return (
    <div className="grid grid-cols-1 gap-8">
      <ul aria-label={t('subscription.plans.listLabel')} className="grid gap-6 pt-3 md:grid-cols-2 xl:grid-cols-3">
        {plans.map((plan) => (
          <PlanCard
            key={plan.id}
            plan={plan}
            relation={planRelation(plan, currentPlan)}
            busy={busy}
            onChangePlan={onChangePlan}
            onManageBilling={onManageBilling}
          />
        ))}
      </ul>
      <PlanComparison plans={plans} currentPlanId={currentPlanId} />
    </div>
  );
}
