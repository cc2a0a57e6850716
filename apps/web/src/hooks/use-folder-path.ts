import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import type { Folder } from '@cloudvault/contract/folders';
import { api } from '../lib/api-client';
import { driveKeys } from '../lib/query-keys';

/** GET /api/user/folders/:id/path: the folders from the top level down to :id inclusive. */
export async function getFolderPath(folderId: string, signal?: AbortSignal): Promise<Folder[]> {
  const { path } = await api.get<{ path: Folder[] }>(`/user/folders/${encodeURIComponent(folderId)}/path`, { signal });
  return path;
}

export function folderPathQueryOptions(folderId: string) {
  return queryOptions({
    queryKey: driveKeys.path(folderId),
    queryFn: ({ signal }) => getFolderPath(folderId, signal),
    staleTime: 0,
  });
}

/** The breadcrumb path of the current folder; nothing to load at home. */
export function useFolderPath(folderId: string | null) {
  return useQuery({ ...folderPathQueryOptions(folderId ?? ''), enabled: folderId !== null });
}

/** Paths of several folders at once (where search hits live). */
export function useFolderPaths(folderIds: readonly string[]) {
  return useQueries({
    queries: folderIds.map((id) => ({ ...folderPathQueryOptions(id), staleTime: 30_000 })),
  });
}
