import { useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import type { PlanId } from '@cloudvault/contract/plans';
import { serverErrorMessage } from '../../../lib/api-client';
import { useCreatePortalSession } from '../api/create-portal-session';
import { useUpgradeSubscription } from '../api/upgrade-subscription';

/** docs/product.md#subscription: the billing portal opens 1 s after its toast, so the toast can be read. */
const PORTAL_REDIRECT_DELAY_MS = 1000;

/** What is in progress: a change to a plan, or opening the billing portal. */
export type PlanActionBusy = { kind: 'plan'; planId: PlanId } | { kind: 'portal' } | null;

/**
 * Changing plan and opening the billing portal, shared by the plan cards, the upgrade modal
 * and the recommendation. Both may leave the app for the payment provider; while they run
 * (and until the browser has left) the action stays busy so its button says 'Processing...'.
 */
export function usePlanActions() {
  const { t } = useTranslation();
  const upgrade = useUpgradeSubscription();
  const portal = useCreatePortalSession();
  const [busy, setBusy] = useState<PlanActionBusy>(null);

  /** `onUpdated` runs when the change happened here, without a checkout. */
  const changePlan = (planId: PlanId, onUpdated?: () => void) => {
    if (busy) return;
    setBusy({ kind: 'plan', planId });
    upgrade.mutate(planId, {
      onSuccess: ({ checkoutUrl }) => {
        if (checkoutUrl) {
          window.location.assign(checkoutUrl);
          return;
        }
        toast.success(t('subscription.toast.updated'));
        setBusy(null);
        onUpdated?.();
      },
      onError: (error) => {
        toast.error(serverErrorMessage(error) ?? t('subscription.toast.upgradeFailed'));
        setBusy(null);
      },
    });
  };

  const openPortal = () => {
    if (busy) return;
    setBusy({ kind: 'portal' });
    portal.mutate(`${window.location.origin}/subscription`, {
      onSuccess: ({ sessionUrl }) => {
        toast(t('subscription.toast.portalRedirect'));
        window.setTimeout(() => window.location.assign(sessionUrl), PORTAL_REDIRECT_DELAY_MS);
      },
      onError: (error) => {
        toast.error(serverErrorMessage(error) ?? t('subscription.toast.portalFailed'));
        setBusy(null);
      },
    });
  };

  return { busy, changePlan, openPortal };
}
