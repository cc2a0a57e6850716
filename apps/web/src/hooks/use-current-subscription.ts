import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CurrentSubscriptionResponse } from '@cloudvault/contract/subscriptions';
import { api } from '../lib/api-client';
import { billingKeys } from '../lib/query-keys';

/**
 * GET /api/subscriptions/current: plan, subscription, usage counters and both histories.
 * With `sessionId` (a checkout just finished) the server asks the payment provider first,
 * so the answer is right even before the provider's webhook arrives.
 */
export function getCurrentSubscription({
  sessionId,
  signal,
}: { sessionId?: string; signal?: AbortSignal } = {}): Promise<CurrentSubscriptionResponse> {
  return api.get<CurrentSubscriptionResponse>('/subscriptions/current', { query: { session_id: sessionId }, signal });
}

export function currentSubscriptionQueryOptions() {
  return queryOptions({
    queryKey: billingKeys.current,
    queryFn: ({ signal }) => getCurrentSubscription({ signal }),
  });
}

/** The signed-in user's subscription; `enabled: false` for visitors (the pricing page). */
export function useCurrentSubscription({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...currentSubscriptionQueryOptions(), enabled });
}
