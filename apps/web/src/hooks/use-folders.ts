import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Folder } from '@cloudvault/contract/folders';
import { api } from '../lib/api-client';
import { driveKeys } from '../lib/query-keys';

/** GET /api/user/folders?parentId=: the folders directly inside a folder (null: home). */
export async function getFolders(parentId: string | null, signal?: AbortSignal): Promise<Folder[]> {
  const { folders } = await api.get<{ folders: Folder[] }>('/user/folders', { query: { parentId }, signal });
  return folders;
}

export function foldersQueryOptions(parentId: string | null) {
  return queryOptions({
    queryKey: driveKeys.folders(parentId),
    queryFn: ({ signal }) => getFolders(parentId, signal),
    // A folder is re-read each time it is opened (docs/product.md#dashboard); the cached
    // listing shows meanwhile.
    staleTime: 0,
  });
}

export function useFolders(parentId: string | null, enabled = true) {
  return useQuery({ ...foldersQueryOptions(parentId), enabled });
}
