import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangePasswordBody, ChangePasswordResponse } from '@cloudvault/contract/profile';
import { api } from '../../../lib/api-client';
import { profileKeys } from '../../../lib/query-keys';

/** PUT /api/user/password: the server signs out every other session of the user; app passwords stay, and the answer counts them. */
export function changePassword(body: ChangePasswordBody): Promise<ChangePasswordResponse> {
  return api.put<ChangePasswordResponse>('/user/password', body);
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    // The change is a line of the account's activity.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileKeys.overview }),
  });
}
