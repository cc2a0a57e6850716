import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageBody } from '@cloudvault/contract/common';
import { apiRequest } from '../../../lib/api-client';
import { downloadWithLink } from '../../../lib/download';
import { endSession } from '../../../lib/session';

/**
 * The whole account as a zip (GET /api/user/export), saved by the browser's own download
 * manager through a signed link, never held in memory; the server names it
 * CloudVault-data-<ISO date>.zip.
 */
export function exportAccountData(): Promise<void> {
  return downloadWithLink('/user/export/download-link');
}

/** DELETE /api/user/account with the account's password: every file, folder, share, setting and session of the user. */
export function deleteAccount(password: string): Promise<MessageBody> {
  return apiRequest<MessageBody>('/user/account', { method: 'DELETE', body: { password } });
}

export function useExportAccountData() {
  return useMutation({ mutationFn: exportAccountData });
}

/** Deletes the account, then ends the session here (its token is already revoked). */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteAccount, onSuccess: () => endSession(queryClient, 'signOut') });
}
