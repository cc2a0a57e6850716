import { useMutation } from '@tanstack/react-query';
import type { PlanId } from '@cloudvault/contract/plans';
import type { UpgradeResponse } from '@cloudvault/contract/subscriptions';
import { useInvalidatePlanData } from '../../../hooks/use-invalidate-plan-data';
import { api } from '../../../lib/api-client';

/**
 * POST /api/subscriptions/upgrade: without a paid subscription the answer is a checkoutUrl
 * to pay at; otherwise the change (up or down, prorated) has already happened. FREE from a
 * paid plan cancels at the end of the period.
 */
export function upgradeSubscription({ planId, prorationDate }: { planId: PlanId; prorationDate?: string }): Promise<UpgradeResponse> {
  // prorationDate: a confirmed preview's, so the change is charged as it was shown.
  return api.post<UpgradeResponse>('/subscriptions/upgrade', prorationDate ? { planId, prorationDate } : { planId });
}

/** Changes the plan; data is refreshed only when no checkout is needed (the page is left otherwise). */
export function useUpgradeSubscription() {
  const invalidatePlanData = useInvalidatePlanData();
  return useMutation({
    mutationFn: upgradeSubscription,
    onSuccess: async (answer) => {
      if (!answer.checkoutUrl) await invalidatePlanData();
    },
  });
}
