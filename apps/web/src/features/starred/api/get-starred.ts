import { queryOptions, useQuery } from '@tanstack/react-query';
import type { StarredResponse } from '@cloudvault/contract/starred';
import { api } from '../../../lib/api-client';
import { driveKeys } from '../../../lib/query-keys';

/** GET /api/starred: every starred folder and file not in Trash, newest star first. */
export function getStarred(signal?: AbortSignal): Promise<StarredResponse> {
  return api.get<StarredResponse>('/starred', { signal });
}

export function starredQueryOptions() {
  return queryOptions({ queryKey: driveKeys.starred, queryFn: ({ signal }) => getStarred(signal), staleTime: 0 });
}

export function useStarred() {
  return useQuery(starredQueryOptions());
}
