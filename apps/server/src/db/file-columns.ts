import type { FilesTable } from './schema.ts';

/** The columns of a file as listings show it (sha256 for its contentTag). */
export const LISTED_FILE_COLUMNS = [
  'id',
  'name',
  'mimetype',
  'size',
  'folder_id',
  'created_at',
  'updated_at',
  'sha256',
] as const satisfies readonly (keyof FilesTable)[];

/**
 * Every column of a file, for reading whole rows: `selectAll` would also fetch
 * listing_entry, a copy of the row as JSON that only listings read. Shared by every
 * repository that reads files (files, trash, versions, account data).
 */
export const FILE_COLUMNS = [
  ...LISTED_FILE_COLUMNS,
  'user_id',
  'category',
  'crc32',
  'blob_key',
  'deleted_at',
  'trashed_root',
] as const satisfies readonly (keyof FilesTable)[];
