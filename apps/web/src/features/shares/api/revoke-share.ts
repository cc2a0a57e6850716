import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Share } from '@cloudvault/contract/shares';
import { api } from '../../../lib/api-client';
import { shareKeys } from '../../../lib/query-keys';

/** DELETE /api/shares/:id: the link or private share stops working at once. */
export function revokeShare(id: string): Promise<void> {
  return api.delete<void>(`/shares/${encodeURIComponent(id)}`);
}

/** Revokes a share and drops its row from the list without waiting for a re-read. */
export function useRevokeShare() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeShare,
    onSuccess: (_, id) => queryClient.setQueryData<Share[]>(shareKeys.mine, (list) => list?.filter((share) => share.id !== id)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: shareKeys.mine }),
  });
}
