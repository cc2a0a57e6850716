import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { AdminAuditResponse } from '@cloudvault/contract/admin';
import { api } from '../../../lib/api-client';
import { adminKeys } from '../../../lib/query-keys';

/** GET /api/admin/audit: operator actions, newest first; `targetId` keeps one user's. */
export function getAudit(targetId: string | null, cursor: string | undefined, signal?: AbortSignal): Promise<AdminAuditResponse> {
  return api.get<AdminAuditResponse>('/admin/audit', { query: { targetId, cursor }, signal });
}

export function auditQueryOptions(targetId: string | null) {
  return infiniteQueryOptions({
    queryKey: adminKeys.audit(targetId),
    queryFn: ({ pageParam, signal }) => getAudit(targetId, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
}

export function useAudit(targetId: string | null) {
  return useInfiniteQuery(auditQueryOptions(targetId));
}
