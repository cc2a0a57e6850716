import { useMutation } from '@tanstack/react-query';
import type { SubscriptionResponse } from '@cloudvault/contract/subscriptions';
import { api } from '../../../lib/api-client';
import { useInvalidatePlanData } from './invalidate-plan-data';

/** POST /api/subscriptions/cancel: the subscription ends at the end of the billing period. */
export function cancelSubscription(): Promise<SubscriptionResponse> {
  return api.post<SubscriptionResponse>('/subscriptions/cancel');
}

export function useCancelSubscription() {
  const invalidatePlanData = useInvalidatePlanData();
  return useMutation({ mutationFn: cancelSubscription, onSuccess: invalidatePlanData });
}
