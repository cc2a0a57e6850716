import { useMutation } from '@tanstack/react-query';
import type { SubscriptionResponse } from '@cloudvault/contract/subscriptions';
import { useInvalidatePlanData } from '../../../hooks/use-invalidate-plan-data';
import { api } from '../../../lib/api-client';

/** POST /api/subscriptions/cancel: the subscription ends at the end of the billing period. */
export function cancelSubscription(): Promise<SubscriptionResponse> {
  return api.post<SubscriptionResponse>('/subscriptions/cancel');
}

export function useCancelSubscription() {
  const invalidatePlanData = useInvalidatePlanData();
  return useMutation({ mutationFn: cancelSubscription, onSuccess: invalidatePlanData });
}
