import { queryOptions, useQuery } from '@tanstack/react-query';
import type { VersionsResponse } from '@cloudvault/contract/versions';
import { api } from '../../../lib/api-client';
import { versionKeys } from '../../../lib/query-keys';

/** GET /api/files/:id/versions: the file's earlier versions, most recently replaced first. */
export function getVersions(fileId: string, signal?: AbortSignal): Promise<VersionsResponse> {
  return api.get<VersionsResponse>(`/files/${encodeURIComponent(fileId)}/versions`, { signal });
}

export function versionsQueryOptions(fileId: string) {
  return queryOptions({
    queryKey: versionKeys.ofFile(fileId),
    queryFn: ({ signal }) => getVersions(fileId, signal),
    select: (data) => data.versions,
  });
}

/** The earlier versions of a file. */
export function useVersions(fileId: string) {
  return useQuery(versionsQueryOptions(fileId));
}
