import { useMutation } from '@tanstack/react-query';
import type { ForgotPasswordBody, ResetPasswordBody } from '@cloudvault/contract/accounts';
import type { MessageBody } from '@cloudvault/contract/common';
import { api } from '../../../lib/api-client';

/** POST /api/auth/forgot-password: the same answer whether or not the e-mail has an account. */
export function forgotPassword(body: ForgotPasswordBody): Promise<MessageBody> {
  return api.post<MessageBody>('/auth/forgot-password', body, { ignoreUnauthorized: true });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}

/** POST /api/auth/reset-password: every session of the account ends, this browser's too. */
export function resetPassword(body: ResetPasswordBody): Promise<MessageBody> {
  return api.post<MessageBody>('/auth/reset-password', body, { ignoreUnauthorized: true });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
