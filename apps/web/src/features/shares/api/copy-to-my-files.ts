import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { driveKeys } from '../../../lib/query-keys';

/** What a "Copy to My Files" copies: a shared file or folder, by its id. */
export interface SharedItemRef {
  kind: 'file' | 'folder';
  id: string;
}

/**
 * Copies a file or folder the user can read through a private share into the root of their
 * own drive (docs/decisions/0057-copy-from-shared-into-my-files-root.md); the server copies
 * the bytes, counts them against the user's quota and names a clash "name (1).ext".
 */
export async function copyToMyFiles({ kind, id }: SharedItemRef): Promise<void> {
  if (kind === 'file') await api.post(`/files/${encodeURIComponent(id)}/copy`, { folderId: null });
  else await api.post(`/user/folders/${encodeURIComponent(id)}/copy`, { parentId: null });
}

/** The copy as a mutation: My Files' listings and the storage card refresh once it is made. */
export function useCopyToMyFiles() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: copyToMyFiles,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: driveKeys.all }),
  });
}
