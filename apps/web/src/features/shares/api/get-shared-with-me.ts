import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SharedFolder, SharedWithMeResponse } from '@cloudvault/contract/shares';
import { api } from '../../../lib/api-client';
import { shareKeys } from '../../../lib/query-keys';

/** GET /api/shared-with-me: folders shared privately to the caller's e-mail, with their owners. */
export async function getSharedWithMe(signal?: AbortSignal): Promise<SharedFolder[]> {
  const { folders } = await api.get<SharedWithMeResponse>('/shared-with-me', { signal });
  return folders;
}

export function sharedWithMeQueryOptions() {
  return queryOptions({ queryKey: shareKeys.sharedWithMe, queryFn: ({ signal }) => getSharedWithMe(signal), staleTime: 0 });
}

export function useSharedWithMe() {
  return useQuery(sharedWithMeQueryOptions());
}
