import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Plan } from '@cloudvault/contract/plans';
import { Badge } from '../../../components/ui/badge';
import { CheckList } from '../../../components/ui/check-list';
import { cn } from '../../../lib/cn';
import { formatPrice } from '../../../lib/money';

interface PricingPlanCardProps {
  plan: Plan;
  /** The signed-in user's plan. */
  current: boolean;
  /** The card's call to action (a link for visitors, a button for users). */
  action: ReactNode;
}

/** A plan of the pricing page: name, price, description, every feature, and its call to action. */
export function PricingPlanCard({ plan, current, action }: PricingPlanCardProps) {
  const { t, i18n } = useTranslation();
  const titleId = useId();

  return (
    <li
      aria-labelledby={titleId}
      className={cn(
        'relative flex flex-col rounded-card border bg-surface p-7 shadow-card',
        plan.popular ? 'border-brand-500 ring-1 ring-brand-500 md:-my-3 md:py-10' : 'border-line',
      )}
    >
      {plan.popular && (
        <p className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-brand-600 px-3 py-1 text-xs font-semibold whitespace-nowrap text-white shadow-sm">
          {t('pricing.mostPopular')}
        </p>
      )}
      <div className="flex items-center justify-between gap-2">
        <h2 id={titleId} className="text-lg font-semibold text-ink">
          {plan.name}
        </h2>
        {current && <Badge tone="brand">{t('pricing.currentBadge')}</Badge>}
      </div>
      <p className="mt-1 text-sm text-ink-muted">{plan.description}</p>
      <p className="mt-6 flex items-baseline gap-1">
        <span className="text-4xl font-extrabold tracking-tight text-ink">{formatPrice(plan.price, i18n.language)}</span>
        <span className="text-sm font-medium text-ink-muted">{t('common.perMonth')}</span>
      </p>
      <CheckList items={plan.features} label={t('pricing.featureLabel', { plan: plan.name })} className="mt-7 flex-1" />
      <div className="mt-8">{action}</div>
    </li>
  );
}
