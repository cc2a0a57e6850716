import { BarChart3, CreditCard, LayoutDashboard, Layers, TriangleAlert } from 'lucide-react';
import { useEffect, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import type { Plan, PlanId } from '@cloudvault/contract/plans';
import { Button } from '../../../components/ui/button';
import { PageTitle } from '../../../components/ui/page-title';
import { Spinner } from '../../../components/ui/spinner';
import { Tabs, type TabItem } from '../../../components/ui/tabs';
import { useCurrentSubscription } from '../../../hooks/use-current-subscription';
import { usePlans } from '../../../hooks/use-plans';
import { useArrivalNotices } from '../hooks/use-arrival-notices';
import { usePlanActions } from '../hooks/use-plan-actions';
import { BillingTab } from './billing-tab';
import { CancelSubscriptionModal } from './cancel-subscription-modal';
import { OverviewTab } from './overview-tab';
import { PlanChangeConfirmModal } from './plan-change-confirm-modal';
import { PlansTab } from './plans-tab';
import { UpgradePlanModal } from './upgrade-plan-modal';
import { UsageTab } from './usage-tab';
import { notify } from '../../../lib/notify';

type TabId = 'overview' | 'billing' | 'usage' | 'plans';

/** A move to a cheaper plan is a downgrade; anything else the cards offer is an upgrade. */
function direction(plans: readonly Plan[], from: PlanId, to: PlanId | null): 'upgrade' | 'downgrade' {
  const price = (id: PlanId | null) => plans.find((plan) => plan.id === id)?.price ?? 0;
  return price(to) < price(from) ? 'downgrade' : 'upgrade';
}

/**
 * Subscription & Billing (docs/product.md#subscription): Overview, Billing, Usage and Plans.
 * The app passes in the analytics the Usage tab ends with.
 */
export function SubscriptionPage({ analytics: Analytics }: { analytics: ComponentType<{ plan: PlanId }> }) {
  const { t } = useTranslation();
  useArrivalNotices();
  const current = useCurrentSubscription();
  const plans = usePlans();
  const actions = usePlanActions();
  const [tab, setTab] = useState<TabId>('overview');
  const [dialog, setDialog] = useState<'upgrade' | 'cancel' | null>(null);

  const failed = current.isError || plans.isError;
  useEffect(() => {
    if (failed) notify.error('subscription.loadFailed', { once: true });
  }, [failed]);

  const tabs: Array<TabItem<TabId>> = [
    { id: 'overview', label: t('subscription.tabs.overview'), icon: LayoutDashboard },
    { id: 'billing', label: t('subscription.tabs.billing'), icon: CreditCard },
    { id: 'usage', label: t('subscription.tabs.usage'), icon: BarChart3 },
    { id: 'plans', label: t('subscription.tabs.plans'), icon: Layers },
  ];

  let content;
  if (current.data && plans.data) {
    const data = current.data;
    content = {
      overview: (
        <OverviewTab
          current={data}
          plans={plans.data}
          busy={actions.busy}
          onChangePlan={actions.changePlan}
          onOpenUpgrade={() => setDialog('upgrade')}
          onOpenCancel={() => setDialog('cancel')}
        />
      ),
      billing: <BillingTab items={data.billingHistory} />,
      usage: <UsageTab current={data} analytics={<Analytics plan={data.plan} />} />,
      plans: (
        <PlansTab
          plans={plans.data}
          currentPlanId={data.plan}
          busy={actions.busy}
          onChangePlan={actions.changePlan}
          onManageBilling={actions.openPortal}
        />
      ),
    }[tab];
  } else if (failed) {
    content = (
      <div role="alert" className="flex min-h-72 flex-col items-center justify-center gap-4 text-center">
        <TriangleAlert aria-hidden="true" className="size-7 text-danger" />
        <p className="text-sm font-medium text-ink">{t('subscription.loadFailed')}</p>
        <Button
          variant="secondary"
          onClick={() => {
            void current.refetch();
            void plans.refetch();
          }}
        >
          {t('subscription.retry')}
        </Button>
      </div>
    );
  } else {
    content = (
      <div role="status" className="flex min-h-72 flex-col items-center justify-center gap-3 text-sm text-ink-muted">
        <Spinner className="size-7 text-brand-600 dark:text-brand-400" />
        {t('subscription.loading')}
      </div>
    );
  }

  return (
    <>
      <PageTitle title={t('subscription.pageTitle')} />
      <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">{t('subscription.title')}</h1>
      <p className="mt-1.5 text-sm text-ink-muted">{t('subscription.subtitle')}</p>
      <Tabs label={t('subscription.tabsLabel')} tabs={tabs} selected={tab} onSelect={setTab} className="mt-6">
        {content}
      </Tabs>
      {current.data && plans.data && (
        <>
          <UpgradePlanModal
            open={dialog === 'upgrade'}
            onClose={() => setDialog(null)}
            plans={plans.data}
            currentPlanId={current.data.plan}
            busy={actions.busy}
            onChangePlan={(planId) => actions.changePlan(planId, () => setDialog(null))}
          />
          <PlanChangeConfirmModal
            plan={plans.data.find((plan) => plan.id === actions.confirming) ?? null}
            direction={direction(plans.data, current.data.plan, actions.confirming)}
            periodEnd={current.data.subscription?.currentPeriodEnd ?? ''}
            busy={actions.busy}
            onConfirm={actions.confirmChange}
            onClose={actions.cancelChange}
          />
          <CancelSubscriptionModal
            open={dialog === 'cancel'}
            onClose={() => setDialog(null)}
            planName={current.data.planDetails.name}
            periodEnd={current.data.subscription?.currentPeriodEnd}
          />
        </>
      )}
    </>
  );
}
