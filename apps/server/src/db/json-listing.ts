import { type RawBuilder, sql } from 'kysely';
import type { Dialect } from './database.ts';

/** JSON text around the array (an answer's envelope), joined in the same pass: a second copy of megabytes otherwise. */
export interface JsonWrapper {
  before: string;
  after: string;
}

/**
 * The stored listing entries of the live files in one folder as a JSON array in name
 * order, inside `within`. On SQLite as a BLOB: its UTF-8 bytes come to us as a Buffer that
 * goes to the socket as it is, where a string cost a decoding into a JavaScript string, a
 * pass to measure it for Content-Length and an encoding again, together more than the
 * query (docs/decisions/0034-request-cost.md). The condition is phrased as
 * files_live_name_idx is built, so that index finds the rows. On SQLite they come from it
 * already in order, and group_concat keeps the order it reads them in; its own ORDER BY
 * would sort them again in a temporary b-tree, which tripled the query for 10,000 files
 * (about 18 ms against 6). The listing tests check the order on both databases.
 */
export function sqlFolderListingArray(dialect: Dialect, userId: string, folderId: string | null, within: JsonWrapper = { before: '', after: '' }): RawBuilder<{ entries: string | Buffer }> {
  const before = `${within.before}[`;
  const after = `]${within.after}`;
  const live = sql`user_id = ${userId} AND coalesce(folder_id, '') = ${folderId ?? ''} AND deleted_at IS NULL`;
  return dialect === 'postgres'
    ? sql`SELECT ${before}::text || coalesce(string_agg(listing_entry, ',' ORDER BY lower(name)), '') || ${after}::text AS entries FROM files WHERE ${live}`
    : sql`SELECT CAST(${before} || coalesce(group_concat(listing_entry, ','), '') || ${after} AS BLOB) AS entries FROM (SELECT listing_entry FROM files WHERE ${live} ORDER BY lower(name))`;
}
