import type { FilesTable, FoldersTable } from '../../db/schema.ts';

/** A folder of the tree being copied, as the copy needs it. */
export type SourceFolder = Pick<FoldersTable, 'id' | 'parent_id' | 'name'>;
/** A file being copied, as the copy needs it. */
export type SourceFile = Pick<FilesTable, 'id' | 'folder_id' | 'name' | 'mimetype' | 'category' | 'size' | 'sha256' | 'crc32' | 'blob_key'>;

/** What every row of one copy shares: whose drive, and when. */
export interface CopyStamp {
  userId: string;
  now: string;
}

/**
 * The folders of a copied tree as new rows, parents before their children so each insert
 * finds its parent, with the map from each source folder to its copy. The top folder goes
 * into `destination` under `topName`; the rest keep their names and shape, empty folders
 * included. `folders` is the top folder and every live folder under it, in any order.
 * Walked with a stack, not recursion, so no depth of nesting overflows the call stack.
 */
export function planFolderCopies(
  topId: string,
  folders: readonly SourceFolder[],
  placement: { destination: string | null; topName: string },
  stamp: CopyStamp,
  newId: () => string,
): { rows: FoldersTable[]; copyOf: Map<string, string> } {
  const children = new Map<string, SourceFolder[]>();
  let top: SourceFolder | undefined;
  for (const folder of folders) {
    if (folder.id === topId) top = folder;
    else if (folder.parent_id !== null) {
      const siblings = children.get(folder.parent_id);
      if (siblings) siblings.push(folder);
      else children.set(folder.parent_id, [folder]);
    }
  }
  if (!top) throw new Error(`The folders to copy do not hold their top folder ${topId}`);
  const copyOf = new Map<string, string>();
  const rows: FoldersTable[] = [];
  const pending: Array<{ folder: SourceFolder; parentId: string | null; name: string }> = [
    { folder: top, parentId: placement.destination, name: placement.topName },
  ];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const id = newId();
    copyOf.set(next.folder.id, id);
    rows.push({
      id,
      user_id: stamp.userId,
      parent_id: next.parentId,
      name: next.name,
      created_at: stamp.now,
      updated_at: stamp.now,
      deleted_at: null,
      trashed_root: 0,
    });
    for (const child of children.get(next.folder.id) ?? []) pending.push({ folder: child, parentId: id, name: child.name });
  }
  return { rows, copyOf };
}

/**
 * The new row of a copied file: a new id and blob, the same bytes (size, sha256, crc32),
 * type and name, in `folderId`; no versions come with it, and it is new, so both its times
 * are the copy's.
 */
export function copiedFileRow(
  source: SourceFile,
  copy: { id: string; blobKey: string; folderId: string | null; name: string },
  stamp: CopyStamp,
): FilesTable {
  return {
    id: copy.id,
    user_id: stamp.userId,
    folder_id: copy.folderId,
    name: copy.name,
    mimetype: source.mimetype,
    category: source.category,
    size: source.size,
    sha256: source.sha256,
    crc32: source.crc32,
    blob_key: copy.blobKey,
    created_at: stamp.now,
    updated_at: stamp.now,
    deleted_at: null,
    trashed_root: 0,
  };
}
