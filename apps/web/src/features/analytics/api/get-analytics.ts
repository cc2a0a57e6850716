import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AnalyticsResponse } from '@cloudvault/contract/analytics';
import { api } from '../../../lib/api-client';
import { analyticsKeys } from '../../../lib/query-keys';

/** GET /api/analytics: storage over time, space by category, largest items, share downloads (Business; 403 elsewhere). */
export function getAnalytics(signal?: AbortSignal): Promise<AnalyticsResponse> {
  return api.get<AnalyticsResponse>('/analytics', { signal });
}

export function analyticsQueryOptions() {
  return queryOptions({ queryKey: analyticsKeys.report, queryFn: ({ signal }) => getAnalytics(signal) });
}

export function useAnalytics() {
  return useQuery(analyticsQueryOptions());
}
