import { useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import type { PlanId } from '@cloudvault/contract/plans';
import { getToken } from '../../../lib/api-client';
import { useCreateCheckoutSession } from '../api/create-checkout-session';

/**
 * Subscribing from the pricing page: a checkout session, then the browser leaves for the
 * payment provider's checkout. The plan stays 'redirecting' until the page is gone.
 */
export function useSubscribe() {
  const { t } = useTranslation();
  const checkout = useCreateCheckoutSession();
  const [pending, setPending] = useState<PlanId | null>(null);

  const subscribe = (planId: PlanId) => {
    if (pending) return;
    // The session may have ended in another tab since this page was drawn.
    if (!getToken()) {
      toast.error(t('pricing.signInToSubscribe'));
      return;
    }
    setPending(planId);
    checkout.mutate(planId, {
      onSuccess: ({ sessionUrl }) => window.location.assign(sessionUrl),
      onError: () => {
        toast.error(t('pricing.subscribeFailed'));
        setPending(null);
      },
    });
  };

  return { pending, subscribe };
}
