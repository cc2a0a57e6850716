import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SharedWithMeResponse } from '@cloudvault/contract/shares';
import { api } from '../../../lib/api-client';
import { shareKeys } from '../../../lib/query-keys';

/** DELETE /api/shared-with-me/:shareId: the caller leaves a share; its owner keeps the item. */
export function leaveShare(shareId: string): Promise<void> {
  return api.delete<void>(`/shared-with-me/${encodeURIComponent(shareId)}`);
}

/** Leaves a share and drops it from Shared with me without waiting for a re-read. */
export function useLeaveShare() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: leaveShare,
    onSuccess: (_, shareId) =>
      queryClient.setQueryData<SharedWithMeResponse>(shareKeys.sharedWithMe, (data) =>
        data
          ? {
              folders: data.folders.filter((entry) => entry.shareId !== shareId),
              files: data.files.filter((entry) => entry.shareId !== shareId),
            }
          : data,
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: shareKeys.sharedWithMe }),
  });
}
