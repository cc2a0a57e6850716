import { useMutation } from '@tanstack/react-query';
import type { SessionUrlResponse } from '@cloudvault/contract/subscriptions';
import { api } from '../../../lib/api-client';

/** POST /api/subscriptions/create-portal-session: the payment provider's billing portal, returning to `returnUrl`. */
export function createPortalSession(returnUrl: string): Promise<SessionUrlResponse> {
  return api.post<SessionUrlResponse>('/subscriptions/create-portal-session', { returnUrl });
}

export function useCreatePortalSession() {
  return useMutation({ mutationFn: createPortalSession });
}
