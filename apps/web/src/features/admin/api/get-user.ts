import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminUserDetailResponse } from '@cloudvault/contract/admin';
import { api } from '../../../lib/api-client';
import { adminKeys } from '../../../lib/query-keys';

/** GET /api/admin/users/:id: plan, billing, usage and devices of one account. */
export function getAdminUser(id: string, signal?: AbortSignal): Promise<AdminUserDetailResponse> {
  return api.get<AdminUserDetailResponse>(`/admin/users/${encodeURIComponent(id)}`, { signal });
}

export function adminUserQueryOptions(id: string) {
  return queryOptions({ queryKey: adminKeys.user(id), queryFn: ({ signal }) => getAdminUser(id, signal) });
}

export function useAdminUser(id: string) {
  return useQuery(adminUserQueryOptions(id));
}
