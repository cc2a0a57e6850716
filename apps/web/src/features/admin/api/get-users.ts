import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { AdminUsersQuery, AdminUsersResponse } from '@cloudvault/contract/admin';
import { api } from '../../../lib/api-client';
import { adminKeys } from '../../../lib/query-keys';

/** GET /api/admin/users: one page of accounts; the server pages with a cursor, so deep pages cost what the first does. */
export function getAdminUsers(query: AdminUsersQuery, cursor: string | undefined, signal?: AbortSignal): Promise<AdminUsersResponse> {
  return api.get<AdminUsersResponse>('/admin/users', { query: { ...query, cursor }, signal });
}

export function adminUsersQueryOptions(query: AdminUsersQuery) {
  return infiniteQueryOptions({
    queryKey: adminKeys.users(query),
    queryFn: ({ pageParam, signal }) => getAdminUsers(query, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    // The previous results stay while a new search loads, instead of the list blinking empty.
    placeholderData: keepPreviousData,
  });
}

export function useAdminUsers(query: AdminUsersQuery) {
  return useInfiniteQuery(adminUsersQueryOptions(query));
}
