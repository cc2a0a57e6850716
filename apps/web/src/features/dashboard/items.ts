import type { FileItem } from '@cloudvault/contract/files';
import type { Folder } from '@cloudvault/contract/folders';

/** A folder or a file as the file manager shows it: one list, folders first. */
export type DriveItem =
  | { kind: 'folder'; key: string; id: string; name: string; folder: Folder }
  | { kind: 'file'; key: string; id: string; name: string; file: FileItem };

export const folderItem = (folder: Folder): DriveItem => ({
  kind: 'folder',
  key: `folder:${folder.id}`,
  id: folder.id,
  name: folder.name,
  folder,
});

/** Whether the person starred the item (the listings say so once starring exists). */
export const isStarred = (item: DriveItem): boolean => (item.kind === 'folder' ? item.folder.starred : item.file.starred) === true;

/** The key of a file's item, for finding its tile by id. */
export const fileKey = (fileId: string) => `file:${fileId}`;

export const fileItem = (file: FileItem): DriveItem => ({
  kind: 'file',
  key: fileKey(file.id),
  id: file.id,
  name: file.originalName,
  file,
});

/** Names in the order people expect: case-insensitive, numbers by value ("2" before "10"). */
export const nameCollator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

export function sortByName<T>(items: readonly T[], name: (item: T) => string): T[] {
  return [...items].sort((a, b) => nameCollator.compare(name(a), name(b)));
}

/** Inserts into a list sorted by name without sorting it again. */
export function insertSorted<T>(items: readonly T[], item: T, name: (item: T) => string): T[] {
  let low = 0;
  let high = items.length;
  const key = name(item);
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (nameCollator.compare(name(items[middle] as T), key) <= 0) low = middle + 1;
    else high = middle;
  }
  return [...items.slice(0, low), item, ...items.slice(low)];
}

/** The folder's items for display: folders then files, each sorted by name. */
export function driveItems(folders: readonly Folder[], files: readonly FileItem[]): DriveItem[] {
  return [...sortByName(folders, (folder) => folder.name).map(folderItem), ...sortByName(files, (file) => file.originalName).map(fileItem)];
}

/** The search box's filter: the name contains the term, case-insensitively. */
export function filterByName(items: readonly DriveItem[], term: string): DriveItem[] {
  const needle = term.trim().toLocaleLowerCase();
  if (!needle) return [...items];
  return items.filter((item) => item.name.toLocaleLowerCase().includes(needle));
}

/** What a drag of items inside the app carries (a move), apart from files from the desktop. */
export const DRAG_ITEMS_TYPE = 'application/x-cloudvault-items';

export interface DraggedItemRef {
  kind: 'folder' | 'file';
  id: string;
}
