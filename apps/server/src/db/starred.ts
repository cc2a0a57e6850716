import { type RawBuilder, sql } from 'kysely';

/**
 * Whether `viewer` starred the item whose id is in `idColumn` (a column of the listing's own
 * query), inside that query: a listing of 10,000 items stays one query. The first EXISTS
 * does not depend on the row, so the database answers it once: a viewer without any star
 * (most, and another user reading a shared folder, since only owners star) costs no probe
 * per row; one with stars costs one probe of stars_file_idx or stars_folder_idx per row.
 * True or false (SQLite's 1 or 0).
 */
export function sqlStarred(viewer: string, item: 'file' | 'folder', idColumn: string): RawBuilder<boolean | number> {
  const column = sql.ref(item === 'file' ? 'stars.file_id' : 'stars.folder_id');
  return sql<
    boolean | number
  >`(EXISTS (SELECT 1 FROM stars WHERE stars.user_id = ${viewer}) AND EXISTS (SELECT 1 FROM stars WHERE ${column} = ${sql.ref(idColumn)} AND stars.user_id = ${viewer}))`;
}

/**
 * A file's stored listing entry (a JSON object, migration 08), with `"starred":true` before
 * its closing brace when `viewer` starred it, and as it is stored otherwise: the entries of
 * unstarred files go out untouched, which keeps a 10,000-file listing at its cost
 * (docs/decisions/0052-starred-and-recent.md, measured there).
 */
export function sqlEntryWithStar(viewer: string, entryColumn = 'listing_entry', idColumn = 'files.id'): RawBuilder<string> {
  const entry = sql.ref(entryColumn);
  return sql<string>`CASE WHEN ${sqlStarred(viewer, 'file', idColumn)} THEN substr(${entry}, 1, length(${entry}) - 1) || ',"starred":true}' ELSE ${entry} END`;
}
