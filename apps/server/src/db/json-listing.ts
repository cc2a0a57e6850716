import { type RawBuilder, sql } from 'kysely';
import type { Dialect } from './database.ts';
import { sqlEntryWithStar } from './starred.ts';

/** JSON text around the array (an answer's envelope), joined in the same pass: a second copy of megabytes otherwise. */
export interface JsonWrapper {
  before: string;
  after: string;
}

/**
 * The stored listing entries of the user's live files in one of their folders (null: the
 * root) as a JSON array in name order (by name_key), inside `within`; no row at all unless the folder is
 * a live folder of theirs, so one query both checks and lists
 * (docs/decisions/0034-request-cost.md, addendum). On SQLite as a BLOB: its UTF-8 bytes
 * come to us as a Buffer that goes to the socket as it is, where a string cost a decoding
 * into a JavaScript string, a pass to measure it for Content-Length and an encoding again,
 * together more than the query. The condition is phrased as files_live_name_key_idx is built,
 * so that index finds the rows. On SQLite they come from it already in order, and
 * group_concat keeps the order it reads them in; its own ORDER BY would sort them again in
 * a temporary b-tree, which tripled the query for 10,000 files (about 18 ms against 6).
 * The listing tests check the order on both databases. Each entry says whether `viewer`
 * starred it (db/starred.ts): the owner, or another user reading a shared folder, who has
 * starred none of it.
 */
export function sqlOwnFolderListing(
  dialect: Dialect,
  userId: string,
  folderId: string | null,
  within: JsonWrapper,
  viewer: string,
): RawBuilder<{ entries: string | Buffer }> {
  const live = sql`user_id = ${userId} AND coalesce(folder_id, '') = ${folderId ?? ''} AND deleted_at IS NULL`;
  const entry = sqlEntryWithStar(viewer);
  const array =
    dialect === 'postgres'
      ? sql`SELECT ${within.before}::text || '[' || coalesce(string_agg(${entry}, ',' ORDER BY name_key), '') || ']' || ${within.after}::text FROM files WHERE ${live}`
      : sql`SELECT CAST(${within.before} || '[' || coalesce(group_concat(entry, ','), '') || ']' || ${within.after} AS BLOB) FROM (SELECT ${entry} AS entry FROM files WHERE ${live} ORDER BY name_key)`;
  if (folderId === null) return sql`SELECT (${array}) AS entries`;
  return sql`SELECT (${array}) AS entries WHERE EXISTS (SELECT 1 FROM folders WHERE id = ${folderId} AND user_id = ${userId} AND deleted_at IS NULL)`;
}
