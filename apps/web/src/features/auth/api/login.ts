import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AuthResponse, LoginBody } from '@cloudvault/contract/accounts';
import { api } from '../../../lib/api-client';
import { startSession } from '../../../lib/session';

/** POST /api/auth/login. A 401 here means wrong credentials: an error to show, not an expired session. */
export function login(body: LoginBody): Promise<AuthResponse> {
  return api.post<AuthResponse>('/auth/login', body, { ignoreUnauthorized: true });
}

/** Signs in and makes the new session current. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (response) => startSession(queryClient, response),
  });
}
