import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FileItem } from '@cloudvault/contract/files';
import type { Folder } from '@cloudvault/contract/folders';
import { api } from '../../../lib/api-client';
import { driveKeys } from '../../../lib/query-keys';
import type { DraggedItemRef, DriveItem } from '../items';

/** PATCH /api/files/:id: rename and/or move a file (409 when the name is taken there). */
export async function updateFile(id: string, body: { name?: string; folderId?: string | null }): Promise<FileItem> {
  const { file } = await api.patch<{ file: FileItem }>(`/files/${encodeURIComponent(id)}`, body);
  return file;
}

/** PATCH /api/user/folders/:id: rename and/or move a folder (409 into itself or a descendant). */
export async function updateFolder(id: string, body: { name?: string; parentId?: string | null }): Promise<Folder> {
  const { folder } = await api.patch<{ folder: Folder }>(`/user/folders/${encodeURIComponent(id)}`, body);
  return folder;
}

export function renameItem(item: DriveItem, name: string): Promise<FileItem | Folder> {
  return item.kind === 'folder' ? updateFolder(item.id, { name }) : updateFile(item.id, { name });
}

export function moveItem(item: DraggedItemRef, targetFolderId: string | null): Promise<FileItem | Folder> {
  return item.kind === 'folder' ? updateFolder(item.id, { parentId: targetFolderId }) : updateFile(item.id, { folderId: targetFolderId });
}

/** Rename one item; every listing is refreshed afterwards. */
export function useRenameItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ item, name }: { item: DriveItem; name: string }) => renameItem(item, name),
    onSettled: () => queryClient.invalidateQueries({ queryKey: driveKeys.all }),
  });
}

export interface MoveResult {
  moved: DraggedItemRef[];
  /** The first refusal's error (409 name taken, into itself…). */
  error: unknown;
}

/** Moves items one by one; a refusal of one does not stop the others. */
export function useMoveItems() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ items, targetFolderId }: { items: DraggedItemRef[]; targetFolderId: string | null }): Promise<MoveResult> => {
      const moved: DraggedItemRef[] = [];
      let error: unknown = null;
      for (const item of items) {
        try {
          await moveItem(item, targetFolderId);
          moved.push(item);
        } catch (caught) {
          error ??= caught;
        }
      }
      return { moved, error };
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: driveKeys.all }),
  });
}
