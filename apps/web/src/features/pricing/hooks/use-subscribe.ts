import { useState } from 'react';
import type { PlanId } from '@cloudvault/contract/plans';
import { getToken } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { useCreateCheckoutSession } from '../api/create-checkout-session';

/**
 * Subscribing from the pricing page: a checkout session, then the browser leaves for the
 * payment provider's checkout. The plan stays 'redirecting' until the page is gone.
 */
export function useSubscribe() {
  const checkout = useCreateCheckoutSession();
  const [pending, setPending] = useState<PlanId | null>(null);

  const subscribe = (planId: PlanId) => {
    if (pending) return;
    // The session may have ended in another tab since this page was drawn.
    if (!getToken()) {
      notify.error('pricing.signInToSubscribe');
      return;
    }
    setPending(planId);
    checkout.mutate(planId, {
      onSuccess: ({ sessionUrl }) => window.location.assign(sessionUrl),
      onError: () => {
        notify.error('pricing.subscribeFailed');
        setPending(null);
      },
    });
  };

  return { pending, subscribe };
}
