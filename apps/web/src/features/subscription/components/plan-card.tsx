import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Plan } from '@cloudvault/contract/plans';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { CheckList } from '../../../components/ui/check-list';
import { cn } from '../../../lib/cn';
import { formatPrice } from '../../../lib/money';
import type { PlanActionBusy } from '../hooks/use-plan-actions';
import type { PlanRelation } from '../plan-relation';
import { PLAN_CARD_FEATURES, shownFeatures } from '../shown-items';

interface PlanCardProps {
  plan: Plan;
  relation: PlanRelation;
  busy: PlanActionBusy;
  onChangePlan: (planId: Plan['id']) => void;
  onManageBilling: () => void;
}

/**
 * A plan of the Plans tab. Its button follows the relation to the current plan: 'Current
 * Plan' (disabled, with 'Manage Billing' on a paid plan), 'Upgrade to …', 'Downgrade to …'
 * or a disabled 'Not Available'.
 */
export function PlanCard({ plan, relation, busy, onChangePlan, onManageBilling }: PlanCardProps) {
  const { t, i18n } = useTranslation();
  const [expanded, setExpanded] = useState(false);
  const titleId = useId();
  const featuresId = useId();
  const { shown, hidden } = shownFeatures(plan.features, PLAN_CARD_FEATURES, expanded);
  const current = relation === 'current';
  const processingPlan = busy?.kind === 'plan' && busy.planId === plan.id;
  const processingPortal = current && busy?.kind === 'portal';

  return (
    <li
      aria-labelledby={titleId}
      className={cn(
        'relative flex flex-col rounded-card border bg-surface p-6 shadow-card',
        current ? 'border-brand-500 ring-1 ring-brand-500' : 'border-line',
      )}
    >
      {plan.popular && (
        <p className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-brand-600 px-3 py-1 text-xs font-semibold whitespace-nowrap text-white shadow-sm">
          {t('subscription.plans.mostPopular')}
        </p>
      )}
      <div className="flex items-center justify-between gap-2">
        <h2 id={titleId} className="text-lg font-semibold text-ink">
          {plan.name}
        </h2>
        {current && <Badge tone="brand">{t('subscription.plans.current')}</Badge>}
      </div>
      <p className="mt-4 flex items-baseline gap-1">
        <span className="text-3xl font-extrabold tracking-tight text-ink">{formatPrice(plan.price, i18n.language)}</span>
        <span className="text-sm font-medium text-ink-muted">{t('common.perMonth')}</span>
      </p>
      <p className="mt-2 text-sm text-ink-muted">{plan.description}</p>
      <CheckList id={featuresId} items={shown} label={t('subscription.plans.featureLabel', { plan: plan.name })} className="mt-5" />
      {(hidden > 0 || expanded) && (
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={featuresId}
          onClick={() => setExpanded((value) => !value)}
          className="focus-ring mt-3 self-start rounded-md text-sm font-medium text-brand-700 hover:underline dark:text-brand-300"
        >
          {expanded ? t('subscription.plans.showFewer') : t('subscription.plans.showAll', { count: plan.features.length })}
        </button>
      )}
      <div className="mt-auto flex flex-col gap-2 pt-6">
        {current ? (
          <>
            <Button variant="secondary" fullWidth disabled>
              {t('subscription.plans.currentPlan')}
            </Button>
            {plan.price > 0 && (
              <Button fullWidth loading={processingPortal} disabled={busy !== null} onClick={onManageBilling}>
                {processingPortal ? t('subscription.plans.processing') : t('subscription.plans.manageBilling')}
              </Button>
            )}
          </>
        ) : relation === 'unavailable' ? (
          <Button variant="secondary" fullWidth disabled>
            {t('subscription.plans.notAvailable')}
          </Button>
        ) : (
          <Button
            variant={relation === 'upgrade' ? 'primary' : 'secondary'}
            fullWidth
            loading={processingPlan}
            disabled={busy !== null}
            onClick={() => onChangePlan(plan.id)}
          >
            {processingPlan
              ? t('subscription.plans.processing')
              : t(relation === 'upgrade' ? 'subscription.plans.upgradeTo' : 'subscription.plans.downgradeTo', { plan: plan.name })}
          </Button>
        )}
      </div>
    </li>
  );
}
