import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { AuthResponse, User } from '@cloudvault/contract/accounts';
import { clearToken, setToken } from '../../../lib/api-client';
import { getProfile, profileQueryKey, sessionQueryOptions } from '../api/get-profile';

export type SessionStatus = 'loading' | 'signedIn' | 'signedOut';

/**
 * Where a signed-in page sends a visitor once the session is gone: the landing page after
 * choosing to sign out, the sign-in page otherwise (expired or revoked session).
 */
let signedOutByUser = false;

export function signedOutRedirectPath(): '/' | '/login' {
  return signedOutByUser ? '/' : '/login';
}

/** Stores the token of a fresh sign-in or registration and makes its user current. */
export function startSession(queryClient: QueryClient, { token, user }: AuthResponse): void {
  setToken(token);
  signedOutByUser = false;
  queryClient.setQueryData<User | null>(profileQueryKey, user);
}

/**
 * Forgets the session: token, user, and every cached answer that belonged to that user.
 * `reason` decides where signed-in pages redirect (see signedOutRedirectPath).
 */
export function endSession(queryClient: QueryClient, reason: 'signOut' | 'unauthorized'): void {
  clearToken();
  signedOutByUser = reason === 'signOut';
  queryClient.removeQueries({
    predicate: (query) => query.queryKey[0] !== profileQueryKey[0] || query.queryKey[1] !== profileQueryKey[1],
  });
  queryClient.setQueryData<User | null>(profileQueryKey, null);
}

export interface Session {
  status: SessionStatus;
  /** The signed-in user; null while loading and when signed out. */
  user: User | null;
  /** Re-reads the profile from the server; a failure is only logged. */
  refreshUser: () => Promise<void>;
  /** Merges local changes into the current user (after a successful profile update…). */
  updateUser: (changes: Partial<User>) => void;
}

/** The session state machine: loading → signedIn | signedOut. */
export function useSession(): Session {
  const queryClient = useQueryClient();
  const { data, isPending } = useQuery(sessionQueryOptions());

  const refreshUser = useCallback(async () => {
    try {
      const { user } = await getProfile();
      queryClient.setQueryData<User | null>(profileQueryKey, user);
    } catch (error) {
      console.error('Could not refresh the profile.', error);
    }
  }, [queryClient]);

  const updateUser = useCallback(
    (changes: Partial<User>) => {
      queryClient.setQueryData<User | null>(profileQueryKey, (current) => (current ? { ...current, ...changes } : current));
    },
    [queryClient],
  );

  const user = data ?? null;
  const status: SessionStatus = isPending ? 'loading' : user ? 'signedIn' : 'signedOut';
  return { status, user, refreshUser, updateUser };
}
