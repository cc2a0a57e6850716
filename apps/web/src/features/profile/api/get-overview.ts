import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AccountOverviewResponse } from '@cloudvault/contract/profile';
import { api } from '../../../lib/api-client';
import { profileKeys } from '../../../lib/query-keys';

/** GET /api/user/overview: account age, last sign-in, counts and recent activity. */
export function getOverview({ signal }: { signal?: AbortSignal } = {}): Promise<AccountOverviewResponse> {
  return api.get<AccountOverviewResponse>('/user/overview', { signal });
}

export function overviewQueryOptions() {
  return queryOptions({ queryKey: profileKeys.overview, queryFn: getOverview });
}

export function useOverview() {
  return useQuery(overviewQueryOptions());
}
