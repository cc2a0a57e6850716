import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AuthResponse, RegisterBody } from '@cloudvault/contract/accounts';
import { api } from '../../../lib/api-client';
import { startSession } from '../../../lib/session';

/** POST /api/auth/register */
export function register(body: RegisterBody): Promise<AuthResponse> {
  return api.post<AuthResponse>('/auth/register', body);
}

/** Creates the account and signs in with it. */
export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: (response) => startSession(queryClient, response),
  });
}
