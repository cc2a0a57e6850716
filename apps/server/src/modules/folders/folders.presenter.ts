import type { Folder } from '@cloudvault/contract/folders';
import type { FolderRow } from './folders.repository.ts';

/** `starred` where the query read it (listings, Starred): whether the caller starred the folder. */
export function presentFolder(row: FolderRow & { starred?: boolean | number }): Folder {
  return {
    id: row.id,
    name: row.name,
    parentId: row.parent_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.starred === undefined ? {} : { starred: Boolean(row.starred) }),
  };
}
