import { type Kysely, type Migration, sql } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

/**
 * Name search across all of a user's files (docs/decisions/0032-name-search.md). Both
 * databases get a B-tree on the owner's live names in the order search answers: when a
 * term matches many files, the database walks it and stops at the answer's limit. On
 * PostgreSQL a trigram index finds the few files a rare term matches without reading the
 * others; SQLite has none and reads every name of the user for a rare term.
 */
async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await sql`CREATE INDEX files_live_search_order_idx ON files (user_id, lower(name), id) WHERE deleted_at IS NULL`.execute(db);
  if (dialect === 'postgres') {
    // As for the user search (2026-11-24-20): without pg_trgm the search still works, by scanning.
    await sql`DO $$ BEGIN
        CREATE EXTENSION IF NOT EXISTS pg_trgm;
      EXCEPTION WHEN others THEN
        RAISE NOTICE 'pg_trgm is not available: file name search scans';
      END $$`.execute(db);
    await sql`DO $$ BEGIN
        IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
          CREATE INDEX files_live_name_trgm_idx ON files USING gin (lower(name) gin_trgm_ops) WHERE deleted_at IS NULL;
        END IF;
      END $$`.execute(db);
  }
}

async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS files_live_name_trgm_idx`.execute(db);
  await sql`DROP INDEX files_live_search_order_idx`.execute(db);
}

export function fileNameSearchMigration(dialect: Dialect): Migration {
  return { up: (db) => up(db, dialect), down };
}
