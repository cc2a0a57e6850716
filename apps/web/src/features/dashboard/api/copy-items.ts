import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FileItem } from '@cloudvault/contract/files';
import type { Folder } from '@cloudvault/contract/folders';
import { api } from '../../../lib/api-client';
import { driveKeys } from '../../../lib/query-keys';
import type { DraggedItemRef } from '../items';

/** POST /api/files/:id/copy: a new file with the same bytes in `folderId` (a taken name becomes "name (1).ext"). */
export async function copyFile(id: string, folderId: string | null): Promise<FileItem> {
  const { file } = await api.post<{ file: FileItem }>(`/files/${encodeURIComponent(id)}/copy`, { folderId });
  return file;
}

/** POST /api/user/folders/:id/copy: the folder and everything under it into `parentId`. */
export async function copyFolder(id: string, parentId: string | null): Promise<Folder> {
  const { folder } = await api.post<{ folder: Folder }>(`/user/folders/${encodeURIComponent(id)}/copy`, { parentId });
  return folder;
}

export interface CopyResult {
  copied: DraggedItemRef[];
  /** The first refusal's error (507 no room, 404 gone, into itself…). */
  error: unknown;
}

/** Copies items one by one on the server; a refusal of one does not stop the others. Listings and storage refresh after. */
export function useCopyItems() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ items, targetFolderId }: { items: DraggedItemRef[]; targetFolderId: string | null }): Promise<CopyResult> => {
      const copied: DraggedItemRef[] = [];
      let error: unknown = null;
      for (const item of items) {
        try {
          if (item.kind === 'folder') await copyFolder(item.id, targetFolderId);
          else await copyFile(item.id, targetFolderId);
          copied.push(item);
        } catch (caught) {
          error ??= caught;
        }
      }
      return { copied, error };
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: driveKeys.all }),
  });
}
