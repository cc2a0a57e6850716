import { type RawBuilder, sql } from 'kysely';
import type { Dialect } from './database.ts';

/** An archive member as the database lists it: a directory (path ends with '/') or a file. */
export interface ArchiveEntryRow {
  path: string;
  updated_at: string;
  blob_key: string | null;
  size: number | string | null;
  crc32: number | string | null;
}

/**
 * The live sub-folders under a folder (the folder itself with path ''), each with its path
 * relative to it and ending in '/', built by the database (a recursive query) so that no
 * folder tree is held in the server to name them. Names are already safe (no separators,
 * never `.` or `..`), so joining them with '/' cannot escape the archive's root.
 */
function tree(userId: string, folderId: string): RawBuilder<unknown> {
  return sql`
    tree (id, path, updated_at) AS (
      SELECT id, CAST('' AS TEXT), updated_at FROM folders WHERE id = ${folderId} AND user_id = ${userId} AND deleted_at IS NULL
      UNION ALL
      SELECT c.id, tree.path || c.name || '/', c.updated_at FROM folders c JOIN tree ON c.parent_id = tree.id
      WHERE c.user_id = ${userId} AND c.deleted_at IS NULL
    )`;
}

/**
 * The tree's sub-folders and live files. The files are looked up folder by folder of the
 * tree (CROSS JOIN keeps SQLite from scanning every file of the account for those in the
 * tree, which a zip of a small folder in a large account would otherwise pay; PostgreSQL
 * plans it as any join).
 */
function entries(userId: string, folderId: string): RawBuilder<unknown> {
  return sql`
    ${tree(userId, folderId)},
    entries (path, updated_at, blob_key, size, crc32) AS (
      SELECT path, updated_at, NULL, NULL, NULL FROM tree WHERE path <> ''
      UNION ALL
      SELECT tree.path || f.name, f.updated_at, f.blob_key, f.size, f.crc32 FROM tree CROSS JOIN files f
      WHERE f.folder_id = tree.id AND f.user_id = ${userId} AND f.deleted_at IS NULL
    )`;
}

/**
 * One page of a folder's archive members, in byte order of their paths (so a directory
 * comes before what it holds), after `afterPath`: paths are unique, so pages neither skip
 * nor repeat a member. PostgreSQL compares with the "C" collation to get byte order;
 * SQLite's default collation already is.
 */
export function sqlArchiveEntriesPage(
  dialect: Dialect,
  userId: string,
  folderId: string,
  afterPath: string,
  limit: number,
): RawBuilder<ArchiveEntryRow> {
  const path = dialect === 'postgres' ? sql`path COLLATE "C"` : sql`path`;
  return sql<ArchiveEntryRow>`WITH RECURSIVE ${entries(userId, folderId)}
    SELECT path, updated_at, blob_key, size, crc32 FROM entries WHERE ${path} > ${afterPath} ORDER BY ${path} LIMIT ${limit}`;
}

/** In UTF-8 bytes, whichever the database. */
const bytesOf = (dialect: Dialect) => (dialect === 'postgres' ? sql`octet_length(path)` : sql`length(CAST(path AS BLOB))`);

/** The longest member path of a folder's archive, in UTF-8 bytes; 0 when it has none. */
export function sqlLongestArchivePath(dialect: Dialect, userId: string, folderId: string): RawBuilder<{ bytes: number | string | null }> {
  return sql<{
    bytes: number | string | null;
  }>`WITH RECURSIVE ${entries(userId, folderId)} SELECT max(${bytesOf(dialect)}) AS bytes FROM entries`;
}

/** The longest sub-folder path of a folder's archive (with its trailing '/'), in UTF-8 bytes; 0 when it has none. */
export function sqlLongestArchiveFolderPath(
  dialect: Dialect,
  userId: string,
  folderId: string,
): RawBuilder<{ bytes: number | string | null }> {
  return sql<{
    bytes: number | string | null;
  }>`WITH RECURSIVE ${tree(userId, folderId)} SELECT max(${bytesOf(dialect)}) AS bytes FROM tree`;
}
