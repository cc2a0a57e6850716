import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { PlanId } from '@cloudvault/contract/plans';
import { useCurrentSubscription } from '../../../hooks/use-current-subscription';
import { ApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { useCreatePortalSession } from '../api/create-portal-session';
import { useUpgradeSubscription } from '../api/upgrade-subscription';
import { changesAtOnce } from '../subscription-state';

/** docs/product.md#subscription: the billing portal opens 1 s after its toast, so the toast can be read. */
const PORTAL_REDIRECT_DELAY_MS = 1000;

/** What is in progress: a change to a plan, or opening the billing portal. */
export type PlanActionBusy = { kind: 'plan'; planId: PlanId } | { kind: 'portal' } | null;

/**
 * Changing plan and opening the billing portal, shared by the plan cards, the upgrade modal
 * and the recommendation. Both may leave the app for the payment provider; while they run
 * (and until the browser has left) the action stays busy so its button says 'Processing...'.
 * A move between paid plans, which charges or credits at once, first waits for the
 * confirmation (`confirming`): only `confirmChange` makes it.
 */
export function usePlanActions() {
  const upgrade = useUpgradeSubscription();
  const portal = useCreatePortalSession();
  const current = useCurrentSubscription();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<PlanActionBusy>(null);
  const [confirming, setConfirming] = useState<{ planId: PlanId; onUpdated?: () => void } | null>(null);

  const submit = (planId: PlanId, prorationDate: string | undefined, onUpdated?: () => void) => {
    setBusy({ kind: 'plan', planId });
    upgrade.mutate(
      { planId, prorationDate },
      {
        onSuccess: ({ checkoutUrl }) => {
          if (checkoutUrl) {
            window.location.assign(checkoutUrl);
            return;
          }
          notify.success('subscription.toast.updated');
          setBusy(null);
          setConfirming(null);
          onUpdated?.();
        },
        onError: (error) => {
          notify.error('subscription.toast.upgradeFailed', { error });
          setBusy(null);
          // The figure shown has lapsed: the confirmation shows a fresh one.
          if (error instanceof ApiError && error.code === 'PREVIEW_EXPIRED')
            void queryClient.invalidateQueries({ queryKey: ['billing', 'preview'] });
        },
      },
    );
  };

  /** `onUpdated` runs when the change happened here, without a checkout. */
  const changePlan = (planId: PlanId, onUpdated?: () => void) => {
    if (busy) return;
    if (changesAtOnce(current.data, planId)) setConfirming({ planId, onUpdated });
    else submit(planId, undefined, onUpdated);
  };

  /** Confirm in the confirmation: the change, prorated as of the preview shown. */
  const confirmChange = (prorationDate: string) => {
    if (busy || !confirming) return;
    submit(confirming.planId, prorationDate, confirming.onUpdated);
  };

  const cancelChange = () => {
    if (!busy) setConfirming(null);
  };

  const openPortal = () => {
    if (busy) return;
    setBusy({ kind: 'portal' });
    portal.mutate(`${window.location.origin}/subscription`, {
      onSuccess: ({ sessionUrl }) => {
        notify.info('subscription.toast.portalRedirect');
        window.setTimeout(() => window.location.assign(sessionUrl), PORTAL_REDIRECT_DELAY_MS);
      },
      onError: (error) => {
        notify.error('subscription.toast.portalFailed', { error });
        setBusy(null);
      },
    });
  };

  return { busy, changePlan, openPortal, confirming: confirming?.planId ?? null, confirmChange, cancelChange };
}
