import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicShare } from '@cloudvault/contract/shares';
import { ApiError, api } from '../../../lib/api-client';
import { shareKeys } from '../../../lib/query-keys';

/**
 * A visitor's request: the access grant of an unlocked password link as X-Share-Access, and
 * a 401 ("password needed") is the link's answer, not the end of anyone's session.
 */
export function visitorOptions(access: string | null, signal?: AbortSignal) {
  return { headers: access ? { 'X-Share-Access': access } : undefined, ignoreUnauthorized: true, signal };
}

/** Whether a failed call means the link wants its password first (401 {passwordRequired: true}). */
export function needsPassword(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.status === 401 &&
    (error.body as { passwordRequired?: unknown } | undefined)?.passwordRequired === true
  );
}

/** GET /api/public/shares/:token: what the link shares; 404 unknown or revoked, 410 expired. */
export function getPublicShare(token: string, access: string | null, signal?: AbortSignal): Promise<PublicShare> {
  return api.get<PublicShare>(`/public/shares/${encodeURIComponent(token)}`, visitorOptions(access, signal));
}

export function publicShareQueryOptions(token: string, access: string | null) {
  return queryOptions({
    queryKey: shareKeys.publicShare(token, access),
    queryFn: ({ signal }) => getPublicShare(token, access, signal),
    staleTime: 0,
  });
}

export function usePublicShare(token: string, access: string | null) {
  return useQuery(publicShareQueryOptions(token, access));
}
