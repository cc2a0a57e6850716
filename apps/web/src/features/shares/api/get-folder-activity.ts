import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FolderActivityEntry, FolderActivityResponse } from '@cloudvault/contract/shares';
import { api } from '../../../lib/api-client';
import { shareKeys } from '../../../lib/query-keys';

/** GET /api/user/folders/:id/activity: what was done inside a shared folder, newest first (its owner and members). */
export async function getFolderActivity(folderId: string, signal?: AbortSignal): Promise<FolderActivityEntry[]> {
  const { activity } = await api.get<FolderActivityResponse>(`/user/folders/${encodeURIComponent(folderId)}/activity`, { signal });
  return activity;
}

export function folderActivityQueryOptions(folderId: string) {
  return queryOptions({
    queryKey: shareKeys.activity(folderId),
    queryFn: ({ signal }) => getFolderActivity(folderId, signal),
    staleTime: 0,
  });
}

export function useFolderActivity(folderId: string) {
  return useQuery(folderActivityQueryOptions(folderId));
}
