import { type Kysely, type Migration, sql } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

/**
 * On PostgreSQL, the ordered index of live names gains the name itself (INCLUDE), so a
 * search can read names in order from the index alone, without a row per name
 * (docs/decisions/0032-name-search.md, addendum): PostgreSQL plans an index-only scan only
 * when every column the query names is in the index, and lower(name) names `name`.
 * SQLite keeps the index of 2026-11-24-21: it has no INCLUDE, and reads rows to search.
 * Names are at most 255 characters (contract ITEM_NAME_MAX_LENGTH), so the lowered name
 * and the name together stay under a B-tree entry's limit (about 2,700 bytes).
 */
async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`CREATE INDEX files_live_search_walk_idx ON files (user_id, lower(name), id) INCLUDE (name) WHERE deleted_at IS NULL`.execute(
    db,
  );
  await sql`DROP INDEX files_live_search_order_idx`.execute(db);
}

async function down(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`CREATE INDEX files_live_search_order_idx ON files (user_id, lower(name), id) WHERE deleted_at IS NULL`.execute(db);
  await sql`DROP INDEX files_live_search_walk_idx`.execute(db);
}

export function fileNameSearchWalkMigration(dialect: Dialect): Migration {
  return { up: (db) => up(db, dialect), down: (db) => down(db, dialect) };
}
