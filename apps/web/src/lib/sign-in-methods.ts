import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ReauthResponse, SignInMethods } from '@cloudvault/contract/single-sign-on';
import { api } from './api-client';
import { signInMethodsKey } from './query-keys';

/**
 * How people sign in on this server (docs/api.md#single-sign-on): the sign-in pages show
 * the provider's button, and what asks for the password asks an account without one to
 * confirm with the provider instead. Read once per visit: the operator changes it only
 * with a restart.
 */
export function getSignInMethods(): Promise<SignInMethods> {
  return api.get<SignInMethods>('/auth/methods');
}

export function signInMethodsQueryOptions() {
  return queryOptions({ queryKey: signInMethodsKey, queryFn: getSignInMethods, staleTime: Infinity });
}

export function useSignInMethods() {
  return useQuery(signInMethodsQueryOptions());
}

/**
 * Sends the browser to the provider to sign in again (POST /api/auth/oidc/reauth); it comes
 * back to `next` with `?sso=reauthenticated`, and for five minutes this session's
 * confirmations need no password.
 */
export async function confirmWithProvider(next: string): Promise<void> {
  const { location } = await api.post<ReauthResponse>('/auth/oidc/reauth', { next });
  window.location.assign(location);
}
