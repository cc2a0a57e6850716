import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminActionBody, AdminDeleteUserBody, AdminUserPatchBody, AdminUserResponse } from '@cloudvault/contract/admin';
import { api, apiRequest } from '../../../lib/api-client';
import { adminKeys } from '../../../lib/query-keys';

const userPath = (id: string) => `/admin/users/${encodeURIComponent(id)}`;

/** PATCH /api/admin/users/:id: suspend or restore, grant a plan by hand or end it; a reason goes with each. */
export function updateAdminUser(id: string, body: AdminUserPatchBody): Promise<AdminUserResponse> {
  return api.patch<AdminUserResponse>(userPath(id), body);
}

/** POST /api/admin/users/:id/resend-verification or /send-password-reset: the account's own mails, sent again. */
export function sendAccountMail(
  id: string,
  mail: 'resend-verification' | 'send-password-reset',
  body: AdminActionBody,
): Promise<{ message: string }> {
  return api.post<{ message: string }>(`${userPath(id)}/${mail}`, body);
}

/** DELETE /api/admin/users/:id: the same deletion the user can do; the address typed back confirms it. */
export function deleteAdminUser(id: string, body: AdminDeleteUserBody): Promise<void> {
  return apiRequest<void>(userPath(id), { method: 'DELETE', body });
}

/**
 * The user detail's actions. Each one changes the lists, the figures and the audit log too,
 * so a success refreshes everything of the console.
 */
export function useAdminUserActions(id: string) {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: adminKeys.all });
  return {
    update: useMutation({ mutationFn: (body: AdminUserPatchBody) => updateAdminUser(id, body), onSuccess }),
    sendMail: useMutation({
      mutationFn: ({ mail, reason }: { mail: 'resend-verification' | 'send-password-reset'; reason?: string }) =>
        sendAccountMail(id, mail, reason ? { reason } : {}),
      onSuccess,
    }),
    remove: useMutation({
      mutationFn: (body: AdminDeleteUserBody) => deleteAdminUser(id, body),
      // The account is gone: its own answers are dropped rather than fetched into a 404.
      onSuccess: () => {
        queryClient.removeQueries({ queryKey: adminKeys.user(id) });
        return queryClient.invalidateQueries({ queryKey: adminKeys.all });
      },
    }),
  };
}
