import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProfileResponse, User, VerifyEmailBody } from '@cloudvault/contract/accounts';
import type { MessageBody } from '@cloudvault/contract/common';
import { api } from '../../../lib/api-client';
import { sessionKey } from '../../../lib/query-keys';

/** POST /api/auth/verify-email: works signed in or not; the token alone names the account. */
export function verifyEmail(body: VerifyEmailBody): Promise<ProfileResponse> {
  return api.post<ProfileResponse>('/auth/verify-email', body, { ignoreUnauthorized: true });
}

/**
 * Verifies the address. When it is the signed-in user's, their session shows it at once
 * (the banner goes), and every other answer is asked again: shares with the address appear.
 */
export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyEmail,
    onSuccess: async ({ user }) => {
      const current = queryClient.getQueryData<User | null>(sessionKey);
      // The session check may still be on its way with the answer from before: ask again.
      if (current === undefined) return queryClient.invalidateQueries({ queryKey: sessionKey });
      if (current?.id !== user.id) return;
      // A session refetch already on its way carries the answer from before: it must not land
      // over the verified user (the banner would come back).
      await queryClient.cancelQueries({ queryKey: sessionKey });
      queryClient.setQueryData<User | null>(sessionKey, { ...current, ...user });
      await queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== sessionKey[0] });
    },
  });
}

/** POST /api/auth/resend-verification: 429 beyond 5 an hour. */
export function resendVerification(): Promise<MessageBody> {
  return api.post<MessageBody>('/auth/resend-verification');
}

export function useResendVerification() {
  return useMutation({ mutationFn: resendVerification });
}
