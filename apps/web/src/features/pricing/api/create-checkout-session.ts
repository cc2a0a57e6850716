import { useMutation } from '@tanstack/react-query';
import type { PlanId } from '@cloudvault/contract/plans';
import type { SessionUrlResponse } from '@cloudvault/contract/subscriptions';
import { api } from '../../../lib/api-client';

/** POST /api/subscriptions/create-checkout-session: the hosted checkout for a paid plan. */
export function createCheckoutSession(planType: PlanId): Promise<SessionUrlResponse> {
  return api.post<SessionUrlResponse>('/subscriptions/create-checkout-session', { planType });
}

export function useCreateCheckoutSession() {
  return useMutation({ mutationFn: createCheckoutSession });
}
