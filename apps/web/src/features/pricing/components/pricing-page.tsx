import { TriangleAlert } from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Plan, PlanId } from '@cloudvault/contract/plans';
import { Button, buttonClasses } from '../../../components/ui/button';
import { PageTitle } from '../../../components/ui/page-title';
import { useCurrentSubscription } from '../../../hooks/use-current-subscription';
import { usePlans } from '../../../hooks/use-plans';
import { useSession } from '../../../hooks/use-session';
import { useSubscribe } from '../hooks/use-subscribe';
import { PricingCta } from './pricing-cta';
import { PricingFaq } from './pricing-faq';
import { PricingPlanCard } from './pricing-plan-card';
import { notify } from '../../../lib/notify';

/** The pricing page (docs/product.md#pricing): the live catalogue, FAQ and a call to action, for visitors and users. */
export function PricingPage() {
  const { t } = useTranslation();
  const { status, user } = useSession();
  const signedIn = status === 'signedIn';
  const plans = usePlans();
  // Only a signed-in user has a current plan to mark.
  const current = useCurrentSubscription({ enabled: signedIn });
  const { pending, subscribe } = useSubscribe();
  const currentPlanId: PlanId | undefined = signedIn ? (current.data?.plan ?? user?.plan) : undefined;

  useEffect(() => {
    if (plans.isError) notify.error('pricing.loadFailed', { once: true });
  }, [plans.isError]);

  const action = (plan: Plan) => {
    const primary = plan.popular ? 'primary' : 'secondary';
    if (!signedIn) {
      return (
        <Link to="/register" className={buttonClasses({ variant: primary, fullWidth: true })}>
          {t(`pricing.cta.${plan.id}`)}
        </Link>
      );
    }
    if (plan.id === currentPlanId) {
      return (
        <Button variant="secondary" fullWidth disabled>
          {t('pricing.currentPlan')}
        </Button>
      );
    }
    // A paying user changes plan (with proration) on the subscription page, not through a new checkout.
    if (plan.price === 0 || (currentPlanId !== undefined && currentPlanId !== 'FREE')) {
      return (
        <Link to="/subscription" className={buttonClasses({ variant: 'secondary', fullWidth: true })}>
          {t('pricing.changePlan')}
        </Link>
      );
    }
    return (
      <Button variant={primary} fullWidth loading={pending === plan.id} disabled={pending !== null} onClick={() => subscribe(plan.id)}>
        {pending === plan.id ? t('pricing.redirecting') : t(`pricing.cta.${plan.id}`)}
      </Button>
    );
  };

  let cards;
  if (plans.data) {
    cards = (
      <ul
        aria-label={t('pricing.plansLabel')}
        className="mx-auto mt-14 grid max-w-md gap-8 md:max-w-none md:grid-cols-3 md:items-center md:gap-6"
      >
        {plans.data.map((plan) => (
          <PricingPlanCard key={plan.id} plan={plan} current={plan.id === currentPlanId} action={action(plan)} />
        ))}
      </ul>
    );
  } else if (plans.isError) {
    cards = (
      <div role="alert" className="mt-14 flex min-h-80 flex-col items-center justify-center gap-4 text-center">
        <TriangleAlert aria-hidden="true" className="size-7 text-danger" />
        <p className="text-sm font-medium text-ink">{t('pricing.loadFailed')}</p>
        <Button variant="secondary" onClick={() => void plans.refetch()}>
          {t('pricing.retry')}
        </Button>
      </div>
    );
  } else {
    // Placeholders of the cards' size, so nothing below jumps when the plans arrive.
    cards = (
      <div
        role="status"
        aria-label={t('pricing.loading')}
        className="mx-auto mt-14 grid max-w-md gap-8 md:max-w-none md:grid-cols-3 md:gap-6"
      >
        {[0, 1, 2].map((index) => (
          <div key={index} className="h-[30rem] animate-pulse rounded-card border border-line bg-surface" />
        ))}
      </div>
    );
  }

  return (
    <>
      <PageTitle title={t('pricing.pageTitle')} />
      <div className="mx-auto max-w-2xl text-center">
        <h1 className="text-3xl font-bold tracking-tight text-ink sm:text-4xl">{t('pricing.title')}</h1>
        <p className="mt-4 text-base leading-relaxed text-ink-muted sm:text-lg">{t('pricing.subtitle')}</p>
      </div>
      {cards}
      <PricingFaq />
      <PricingCta signedIn={signedIn} />
    </>
  );
}
