import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { driveKeys, trashKeys } from '../../../lib/query-keys';
import type { DriveItem } from '../items';
import { removeFromListings } from '../listing-cache';

/** DELETE /api/files/:id: the file goes to Trash. */
export function deleteFile(id: string): Promise<{ message: string }> {
  return api.delete(`/files/${encodeURIComponent(id)}`);
}

/** DELETE /api/user/folders/:id: the folder and everything under it go to Trash. */
export function deleteFolder(id: string): Promise<{ message: string }> {
  return api.delete(`/user/folders/${encodeURIComponent(id)}`);
}

/** Deletes an item, removes it from its listing at once and refreshes the storage summary. */
export function useDeleteItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (item: DriveItem) => (item.kind === 'folder' ? deleteFolder(item.id) : deleteFile(item.id)),
    onSuccess: (_answer, item) => {
      removeFromListings(queryClient, item);
      void queryClient.invalidateQueries({ queryKey: driveKeys.storage });
      void queryClient.invalidateQueries({ queryKey: driveKeys.searches });
      void queryClient.invalidateQueries({ queryKey: trashKeys.all });
    },
  });
}
