import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AuthResponse } from '@cloudvault/contract/accounts';
import { api } from '../../../lib/api-client';
import { startSession } from '../../../lib/session';

/** POST /api/auth/oidc/session: the one-time code the provider's callback left in the address, for the session. */
export function exchangeHandoffCode(code: string): Promise<AuthResponse> {
  return api.post<AuthResponse>('/auth/oidc/session', { code });
}

export function useHandoff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: exchangeHandoffCode,
    onSuccess: (response) => startSession(queryClient, response),
  });
}
