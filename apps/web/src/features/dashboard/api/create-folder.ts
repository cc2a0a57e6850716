import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Folder } from '@cloudvault/contract/folders';
import { api } from '../../../lib/api-client';
import { driveKeys } from '../../../lib/query-keys';
import { insertSorted } from '../items';
import { addFolderToListings } from '../listing-cache';

/** POST /api/user/folders. 409 when the name is taken in that folder. */
export async function createFolder(body: { name: string; parentId: string | null }): Promise<Folder> {
  const { folder } = await api.post<{ folder: Folder }>('/user/folders', body);
  return folder;
}

/** Creates a folder and appends it to its parent's listing at once. */
export function useCreateFolder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createFolder,
    onSuccess: (folder) => {
      queryClient.setQueryData<Folder[]>(driveKeys.folders(folder.parentId), (folders) =>
        folders ? insertSorted(folders, folder, (item) => item.name) : folders,
      );
      addFolderToListings(queryClient, folder);
      void queryClient.invalidateQueries({ queryKey: driveKeys.folders(folder.parentId) });
    },
  });
}
