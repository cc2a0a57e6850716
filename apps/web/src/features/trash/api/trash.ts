import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TrashResponse } from '@cloudvault/contract/trash';
import { api } from '../../../lib/api-client';
import { driveKeys, trashKeys } from '../../../lib/query-keys';

/** GET /api/trash: what the user deleted, with when and (auto-delete on) when it is purged. */
export function getTrash(): Promise<TrashResponse> {
  return api.get<TrashResponse>('/trash');
}

export function useTrash() {
  return useQuery({ queryKey: trashKeys.all, queryFn: getTrash, staleTime: 0 });
}

/** POST /api/trash/restore: back to its old place (or home when that place is gone). */
export function restoreItem(body: { type: 'file' | 'folder'; id: string }): Promise<unknown> {
  return api.post('/trash/restore', body);
}

/** DELETE /api/trash: everything in Trash is deleted forever and its space freed. */
export function emptyTrash(): Promise<void> {
  return api.delete<void>('/trash');
}

/** DELETE /api/trash/{files|folders}/:id: one item (a folder with its contents) deleted for good. */
export function purgeItem(body: { type: 'file' | 'folder'; id: string }): Promise<void> {
  return api.delete<void>(`/trash/${body.type}s/${encodeURIComponent(body.id)}`);
}

export function usePurgeItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: purgeItem,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: trashKeys.all });
      void queryClient.invalidateQueries({ queryKey: driveKeys.storage });
    },
  });
}

export function useRestoreItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restoreItem,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: trashKeys.all });
      void queryClient.invalidateQueries({ queryKey: driveKeys.all });
    },
  });
}

export function useEmptyTrash() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: emptyTrash,
    onSuccess: () => queryClient.setQueryData<TrashResponse>(trashKeys.all, { folders: [], files: [] }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: trashKeys.all });
      void queryClient.invalidateQueries({ queryKey: driveKeys.storage });
    },
  });
}
