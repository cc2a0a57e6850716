import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminStatsResponse } from '@cloudvault/contract/admin';
import { api } from '../../../lib/api-client';
import { adminKeys } from '../../../lib/query-keys';

/** GET /api/admin/stats: the overview's figures, charts and health. */
export function getAdminStats(signal?: AbortSignal): Promise<AdminStatsResponse> {
  return api.get<AdminStatsResponse>('/admin/stats', { signal });
}

export function adminStatsQueryOptions() {
  return queryOptions({ queryKey: adminKeys.stats, queryFn: ({ signal }) => getAdminStats(signal) });
}

export function useAdminStats() {
  return useQuery(adminStatsQueryOptions());
}
