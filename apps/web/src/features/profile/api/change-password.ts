import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageBody } from '@cloudvault/contract/common';
import type { ChangePasswordBody } from '@cloudvault/contract/profile';
import { api } from '../../../lib/api-client';
import { profileKeys } from '../../../lib/query-keys';

/** PUT /api/user/password: the server signs out every other session of the user. */
export function changePassword(body: ChangePasswordBody): Promise<MessageBody> {
  return api.put<MessageBody>('/user/password', body);
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    // The change is a line of the account's activity.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileKeys.overview }),
  });
}
