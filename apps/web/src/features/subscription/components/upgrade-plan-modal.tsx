import { Sparkles } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { Plan } from '@cloudvault/contract/plans';
import { Button } from '../../../components/ui/button';
import { CheckList } from '../../../components/ui/check-list';
import { Modal } from '../../../components/ui/modal';
import { formatPrice } from '../../../lib/money';
import type { PlanActionBusy } from '../hooks/use-plan-actions';
import { shownFeatures, UPGRADE_MODAL_FEATURES } from '../shown-items';

interface UpgradePlanModalProps {
  open: boolean;
  onClose: () => void;
  plans: readonly Plan[];
  currentPlanId: Plan['id'];
  busy: PlanActionBusy;
  onChangePlan: (planId: Plan['id']) => void;
}

/** 'Upgrade Your Plan': every plan but the current one, up to 5 features each, and its Upgrade button. */
export function UpgradePlanModal({ open, onClose, plans, currentPlanId, busy, onChangePlan }: UpgradePlanModalProps) {
  const { t, i18n } = useTranslation();
  const choices = plans.filter((plan) => plan.id !== currentPlanId);

  return (
    <Modal
      open={open}
      onClose={onClose}
      busy={busy !== null}
      size="lg"
      title={t('subscription.upgradeModal.title')}
      description={t('subscription.upgradeModal.description')}
      icon={
        <span className="grid size-10 place-items-center rounded-xl bg-brand-50 text-brand-600 dark:bg-brand-950 dark:text-brand-300">
          <Sparkles aria-hidden="true" className="size-5" />
        </span>
      }
    >
      <ul aria-label={t('subscription.upgradeModal.plansLabel')} className="grid gap-4 sm:grid-cols-2">
        {choices.map((plan) => {
          const processing = busy?.kind === 'plan' && busy.planId === plan.id;
          return (
            <li key={plan.id} aria-label={plan.name} className="flex flex-col rounded-control border border-line p-4">
              <div className="flex items-baseline justify-between gap-2">
                <h3 className="font-semibold text-ink">{plan.name}</h3>
                <p className="text-sm text-ink-muted">
                  <span className="text-lg font-bold text-ink">{formatPrice(plan.price, i18n.language)}</span>
                  {t('common.perMonth')}
                </p>
              </div>
              <CheckList
                items={shownFeatures(plan.features, UPGRADE_MODAL_FEATURES).shown}
                label={t('subscription.plans.featureLabel', { plan: plan.name })}
                className="mt-3 mb-4"
              />
              <Button
                className="mt-auto"
                fullWidth
                loading={processing}
                disabled={busy !== null}
                aria-label={processing ? undefined : t('subscription.upgradeModal.upgradeTo', { plan: plan.name })}
                onClick={() => onChangePlan(plan.id)}
              >
                {processing ? t('subscription.plans.processing') : t('subscription.upgradeModal.upgrade')}
              </Button>
            </li>
          );
        })}
      </ul>
    </Modal>
  );
}
