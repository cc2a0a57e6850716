import type { Folder } from '@cloudvault/contract/folders';
import { folderItem, type DriveItem } from './items';

/**
 * Which item takes the focus when a folder opens after another one (a tile, Back, a
 * breadcrumb), so it never falls to the page: going up, the folder just left (or its
 * ancestor shown here), as a file manager does; otherwise the first item. null: the folder
 * is empty.
 *
 * `folderId` is the folder now shown (null: My Files); `leftPath` is the path of the
 * folder left, top-level folder first (empty when My Files was left).
 */
export function arrivalFocusKey(items: readonly DriveItem[], folderId: string | null, leftPath: readonly Folder[]): string | null {
  const depth = folderId === null ? -1 : leftPath.findIndex((folder) => folder.id === folderId);
  const cameFrom = folderId === null || depth >= 0 ? leftPath[depth + 1] : undefined;
  const key = cameFrom ? folderItem(cameFrom).key : null;
  if (key && items.some((item) => item.key === key)) return key;
  return items[0]?.key ?? null;
}
