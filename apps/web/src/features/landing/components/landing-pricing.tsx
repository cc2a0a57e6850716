import { Check } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClasses } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import { formatPrice } from '../../../lib/money';
import { MARKETED_PLANS, type MarketedPlan } from '../plans';
import { useFormatSize } from '../../../lib/format-size';

function PlanCard({ plan }: { plan: MarketedPlan }) {
  const { t, i18n } = useTranslation();
  const formatSize = useFormatSize();
  const name = t(`common.plans.${plan.id}`);
  const titleId = `plan-${plan.id.toLowerCase()}-title`;
  const features = [
    t('landing.pricing.storage', { size: formatSize(plan.storageLimit) }),
    plan.maxFileSize === null
      ? t('landing.pricing.noFileSizeLimit')
      : t('landing.pricing.maxFileSize', { size: formatSize(plan.maxFileSize) }),
    ...plan.features.map((feature) => t(`landing.pricing.feature.${feature}`)),
  ];

  return (
    <li
      aria-labelledby={titleId}
      className={cn(
        'relative flex flex-col rounded-card border bg-surface p-7 shadow-card',
        plan.popular ? 'border-brand-500 ring-1 ring-brand-500 md:-my-3 md:py-10' : 'border-line',
      )}
    >
      {plan.popular && (
        <p className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-brand-600 px-3 py-1 text-xs font-semibold text-white shadow-sm">
          {t('landing.pricing.mostPopular')}
        </p>
      )}
      <h3 id={titleId} className="text-lg font-semibold text-ink">
        {name}
      </h3>
      <p className="mt-1 text-sm text-ink-muted">{t(`landing.pricing.description.${plan.id}`)}</p>
      <p className="mt-6 flex items-baseline gap-1">
        <span className="text-4xl font-extrabold tracking-tight text-ink">{formatPrice(plan.price, i18n.language)}</span>
        <span className="text-sm font-medium text-ink-muted">{t('common.perMonth')}</span>
      </p>
      <ul aria-label={t('landing.pricing.featureLabel', { plan: name })} className="mt-7 flex-1 space-y-3">
        {features.map((feature) => (
          <li key={feature} className="flex items-start gap-3 text-[0.9375rem] text-ink">
            <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-600 dark:text-brand-400" />
            {feature}
          </li>
        ))}
      </ul>
      <Link to="/register" className={cn(buttonClasses({ variant: plan.popular ? 'primary' : 'secondary', fullWidth: true }), 'mt-8')}>
        {t(`landing.pricing.cta.${plan.id}`)}
      </Link>
    </li>
  );
}

export function LandingPricing() {
  const { t } = useTranslation();
  return (
    <section id="pricing" aria-labelledby="pricing-title" className="scroll-mt-20">
      <div className="mx-auto max-w-6xl px-4 py-20 sm:px-8 sm:py-24">
        <div className="mx-auto max-w-2xl text-center">
          <h2 id="pricing-title" className="text-3xl font-bold tracking-tight text-ink sm:text-4xl">
            {t('landing.pricing.title')}
          </h2>
          <p className="mt-4 text-base leading-relaxed text-ink-muted sm:text-lg">{t('landing.pricing.subtitle')}</p>
        </div>
        <ul className="mx-auto mt-14 grid max-w-md gap-8 md:max-w-none md:grid-cols-3 md:items-center md:gap-6">
          {MARKETED_PLANS.map((plan) => (
            <PlanCard key={plan.id} plan={plan} />
          ))}
        </ul>
      </div>
    </section>
  );
}
