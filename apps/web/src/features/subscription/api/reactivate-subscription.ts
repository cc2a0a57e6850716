import { useMutation } from '@tanstack/react-query';
import type { SubscriptionResponse } from '@cloudvault/contract/subscriptions';
import { useInvalidatePlanData } from '../../../hooks/use-invalidate-plan-data';
import { api } from '../../../lib/api-client';

/** POST /api/subscriptions/reactivate: a subscription set to end renews again. */
export function reactivateSubscription(): Promise<SubscriptionResponse> {
  return api.post<SubscriptionResponse>('/subscriptions/reactivate');
}

export function useReactivateSubscription() {
  const invalidatePlanData = useInvalidatePlanData();
  return useMutation({ mutationFn: reactivateSubscription, onSuccess: invalidatePlanData });
}
