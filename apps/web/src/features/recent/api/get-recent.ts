import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RecentResponse } from '@cloudvault/contract/recent';
import { api } from '../../../lib/api-client';
import { driveKeys } from '../../../lib/query-keys';

/** GET /api/recent: the files opened, uploaded or changed lately (the server's default 30), newest first, with the folders they are in. */
export function getRecent(signal?: AbortSignal): Promise<RecentResponse> {
  return api.get<RecentResponse>('/recent', { signal });
}

export function recentQueryOptions() {
  return queryOptions({ queryKey: driveKeys.recent, queryFn: ({ signal }) => getRecent(signal), staleTime: 0 });
}

export function useRecent() {
  return useQuery(recentQueryOptions());
}
