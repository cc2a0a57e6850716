import type { FileItem } from '@cloudvault/contract/files';
import { formatBytes } from '@cloudvault/contract/format';
import { contentTagOf, previewOf } from '../../lib/content-types.ts';
import type { ListedFile } from './files.repository.ts';

export function presentFile(row: ListedFile): FileItem {
  return {
    id: row.id,
    originalName: row.name,
    mimetype: row.mimetype,
    size: Number(row.size),
    sizeFormatted: formatBytes(Number(row.size)),
    folderId: row.folder_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    preview: previewOf(row.mimetype),
    contentTag: contentTagOf(row.sha256),
    contentHash: row.sha256,
    // Only a starred item says so: an item without it is not starred (docs/api.md#starred).
    ...(row.starred ? { starred: true } : {}),
  };
}
