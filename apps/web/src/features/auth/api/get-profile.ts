import { queryOptions } from '@tanstack/react-query';
import type { ProfileResponse, User } from '@cloudvault/contract/accounts';
import { api, clearToken, getToken, type RequestOptions } from '../../../lib/api-client';

/** The signed-in user lives in the query cache under this key (null: signed out). */
export const profileQueryKey = ['auth', 'profile'] as const;

/** GET /api/auth/profile */
export function getProfile(options?: Pick<RequestOptions, 'ignoreUnauthorized' | 'signal'>): Promise<ProfileResponse> {
  return api.get<ProfileResponse>('/auth/profile', options);
}

/**
 * The start-up session check: no token means signed out at once; with a token the
 * profile decides. A failed check only drops the token (and is logged); the route guards
 * then send the visitor where a signed-out visitor belongs.
 */
async function loadSession({ signal }: { signal: AbortSignal }): Promise<User | null> {
  if (!getToken()) return null;
  try {
    const { user } = await getProfile({ ignoreUnauthorized: true, signal });
    return user;
  } catch (error) {
    console.warn('Session check failed; signing out.', error);
    clearToken();
    return null;
  }
}

export function sessionQueryOptions() {
  return queryOptions({
    queryKey: profileQueryKey,
    queryFn: loadSession,
    // Without a token the answer is known synchronously: no loading flash for visitors.
    initialData: () => (getToken() ? undefined : null),
    // The session changes only through sign-in, sign-out, refreshUser and updateUser.
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}
