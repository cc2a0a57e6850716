import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { FileItem } from '@cloudvault/contract/files';
import { api } from '../../../lib/api-client';
import { driveKeys } from '../../../lib/query-keys';

/** GET /api/files?search=: files anywhere in the drive whose name contains the term. */
export async function searchFiles(term: string, signal?: AbortSignal): Promise<FileItem[]> {
  const { files } = await api.get<{ files: FileItem[] }>('/files', { query: { search: term }, signal });
  return files;
}

/** The drive-wide search for an already debounced term; idle for a blank one. */
export function useSearchFiles(term: string) {
  const trimmed = term.trim();
  return useQuery({
    queryKey: driveKeys.search(trimmed),
    queryFn: ({ signal }) => searchFiles(trimmed, signal),
    enabled: trimmed.length > 0,
    staleTime: 10_000,
    placeholderData: keepPreviousData,
  });
}
