import { type RawBuilder, sql } from 'kysely';

/**
 * Whether `viewer` starred the item whose id is in `idColumn` (a column of the listing's
 * own query): one probe of stars_file_idx or stars_folder_idx per row, in the listing's
 * query, so a listing of 10,000 items is still one query. True or false on both
 * databases (SQLite's 1 or 0 is cast by the caller). Only owners star, so another
 * viewer's listing of a shared folder finds none.
 */
export function sqlStarred(viewer: string, item: 'file' | 'folder', idColumn: string): RawBuilder<boolean | number> {
  const column = sql.ref(item === 'file' ? 'stars.file_id' : 'stars.folder_id');
  return sql<boolean | number>`EXISTS (SELECT 1 FROM stars WHERE ${column} = ${sql.ref(idColumn)} AND stars.user_id = ${viewer})`;
}

/**
 * A file's stored listing entry (a JSON object, migration 08) with `"starred"` added before
 * its closing brace: the stored entry stays the row's own, the star the viewer's.
 */
export function sqlEntryWithStar(viewer: string, entryColumn = 'listing_entry', idColumn = 'files.id'): RawBuilder<string> {
  const entry = sql.ref(entryColumn);
  return sql<string>`substr(${entry}, 1, length(${entry}) - 1) || CASE WHEN ${sqlStarred(viewer, 'file', idColumn)} THEN ',"starred":true}' ELSE ',"starred":false}' END`;
}
