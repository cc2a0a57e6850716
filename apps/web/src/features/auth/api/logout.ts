import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../../lib/api-client';
import { endSession } from '../../../lib/session';

/** POST /api/auth/logout: revokes the current token on the server. */
export function logout(): Promise<void> {
  return api.post<void>('/auth/logout', undefined, { ignoreUnauthorized: true });
}

/**
 * Signs out at once: the revocation request leaves with the token before it is dropped,
 * and its failure (offline, already expired) does not keep anybody signed in.
 */
export function useLogout(): () => void {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(() => {
    logout().catch((error: unknown) => console.warn('Sign-out request failed; signed out locally.', error));
    endSession(queryClient, 'signOut');
    void navigate('/', { replace: true });
  }, [queryClient, navigate]);
}
