import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DashboardResponse } from '@cloudvault/contract/files';
import { api } from '../../../lib/api-client';
import { driveKeys } from '../../../lib/query-keys';

/** GET /api/user/dashboard: storage used and the quota. */
export function getStorageInfo(): Promise<DashboardResponse> {
  return api.get<DashboardResponse>('/user/dashboard');
}

export function storageInfoQueryOptions() {
  return queryOptions({ queryKey: driveKeys.storage, queryFn: getStorageInfo, staleTime: 0 });
}

export function useStorageInfo() {
  return useQuery(storageInfoQueryOptions());
}
