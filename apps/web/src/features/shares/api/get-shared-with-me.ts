import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SharedWithMeResponse } from '@cloudvault/contract/shares';
import { api } from '../../../lib/api-client';
import { shareKeys } from '../../../lib/query-keys';

/** GET /api/shared-with-me: folders and files shared privately to the caller's e-mail, with their owners. */
export async function getSharedWithMe(signal?: AbortSignal): Promise<SharedWithMeResponse> {
  const { folders, files } = await api.get<SharedWithMeResponse>('/shared-with-me', { signal });
  // A server from before files could be shared answers folders only.
  return { folders, files: files ?? [] };
}

export function sharedWithMeQueryOptions() {
  return queryOptions({ queryKey: shareKeys.sharedWithMe, queryFn: ({ signal }) => getSharedWithMe(signal), staleTime: 0 });
}

export function useSharedWithMe() {
  return useQuery(sharedWithMeQueryOptions());
}
