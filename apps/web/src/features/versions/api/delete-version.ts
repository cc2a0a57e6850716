import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { billingKeys, driveKeys, versionKeys } from '../../../lib/query-keys';

/** DELETE /api/files/:id/versions/:versionId: the version's bytes go and its space comes back. */
export function deleteVersion(fileId: string, versionId: string): Promise<void> {
  return api.delete<void>(`/files/${encodeURIComponent(fileId)}/versions/${encodeURIComponent(versionId)}`);
}

/** Deletes a version; the history and both storage summaries refresh. */
export function useDeleteVersion(fileId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (versionId: string) => deleteVersion(fileId, versionId),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: versionKeys.ofFile(fileId) });
      void queryClient.invalidateQueries({ queryKey: driveKeys.storage });
      void queryClient.invalidateQueries({ queryKey: billingKeys.current });
    },
  });
}
