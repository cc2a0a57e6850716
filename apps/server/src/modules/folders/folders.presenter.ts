import type { Folder } from '@cloudvault/contract/folders';
import type { FolderRow } from './folders.repository.ts';

/** `starred: true` when the query read that the caller starred it (listings, Starred). */
export function presentFolder(row: FolderRow & { starred?: boolean | number }): Folder {
  return {
    id: row.id,
    name: row.name,
    parentId: row.parent_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    // Only a starred item says so: an item without it is not starred (docs/api.md#starred).
    ...(row.starred ? { starred: true } : {}),
  };
}
