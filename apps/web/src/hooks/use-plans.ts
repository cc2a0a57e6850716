import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Plan } from '@cloudvault/contract/plans';
import type { PlansResponse } from '@cloudvault/contract/subscriptions';
import { api } from '../lib/api-client';
import { billingKeys } from '../lib/query-keys';

/** GET /api/subscriptions/plans: the plan catalogue, ordered by price. Public. */
export async function getPlans(signal?: AbortSignal): Promise<Plan[]> {
  const { plans } = await api.get<PlansResponse>('/subscriptions/plans', { signal });
  return plans;
}

export function plansQueryOptions() {
  return queryOptions({
    queryKey: billingKeys.plans,
    queryFn: ({ signal }) => getPlans(signal),
    // The catalogue changes only when the operator restarts the server with another one.
    staleTime: 10 * 60_000,
  });
}

export function usePlans() {
  return useQuery(plansQueryOptions());
}
