import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { User } from '@cloudvault/contract/accounts';
import { sessionKey } from '../lib/query-keys';
import { getProfile, sessionQueryOptions } from '../lib/session';

export type SessionStatus = 'loading' | 'signedIn' | 'signedOut';

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
      queryClient.setQueryData<User | null>(sessionKey, user);
    } catch (error) {
      console.error('Could not refresh the profile.', error);
    }
  }, [queryClient]);

  const updateUser = useCallback(
    (changes: Partial<User>) => {
      queryClient.setQueryData<User | null>(sessionKey, (current) => (current ? { ...current, ...changes } : current));
    },
    [queryClient],
  );

  const user = data ?? null;
  const status: SessionStatus = isPending ? 'loading' : user ? 'signedIn' : 'signedOut';
  return { status, user, refreshUser, updateUser };
}
