import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FileItem } from '@cloudvault/contract/files';
import { api } from '../lib/api-client';
import { driveKeys } from '../lib/query-keys';

/** GET /api/files?folderId=: the files directly inside a folder (null: home). */
export async function getFiles(folderId: string | null, signal?: AbortSignal): Promise<FileItem[]> {
  const { files } = await api.get<{ files: FileItem[] }>('/files', { query: { folderId }, signal });
  return files;
}

export function filesQueryOptions(folderId: string | null) {
  return queryOptions({
    queryKey: driveKeys.files(folderId),
    queryFn: ({ signal }) => getFiles(folderId, signal),
    staleTime: 0,
  });
}

export function useFiles(folderId: string | null) {
  return useQuery(filesQueryOptions(folderId));
}
