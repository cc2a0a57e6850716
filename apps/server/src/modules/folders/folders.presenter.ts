import type { Folder } from '@cloudvault/contract/folders';
import type { FolderRow } from './folders.repository.ts';

export function presentFolder(row: FolderRow): Folder {
  return {
    id: row.id,
    name: row.name,
    parentId: row.parent_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
