import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RestoredVersionResponse } from '@cloudvault/contract/versions';
import { api } from '../../../lib/api-client';
import { driveKeys, versionKeys } from '../../../lib/query-keys';

/** POST /api/files/:id/versions/:versionId/restore: the version becomes the file's bytes, the current bytes a version. */
export function restoreVersion(fileId: string, versionId: string): Promise<RestoredVersionResponse> {
  return api.post<RestoredVersionResponse>(`/files/${encodeURIComponent(fileId)}/versions/${encodeURIComponent(versionId)}/restore`);
}

/** Restores a version; the history and the drive listings (the file's size changed) refresh. */
export function useRestoreVersion(fileId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (versionId: string) => restoreVersion(fileId, versionId),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: versionKeys.ofFile(fileId) });
      void queryClient.invalidateQueries({ queryKey: driveKeys.all });
    },
  });
}
