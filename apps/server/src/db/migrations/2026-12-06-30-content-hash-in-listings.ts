import { type Kysely, type Migration, type RawBuilder, sql } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

/** The image types with a thumbnail, as migration 16 has them (migrations are frozen: a copy, not an import). */
const THUMBNAILED_IMAGES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif', 'image/tiff', 'image/svg+xml'];

/** FileItem.preview from a mimetype, as migration 16 writes it. */
function sqlPreview(mimetype: RawBuilder<unknown>): RawBuilder<string | null> {
  return sql`CASE
    WHEN ${mimetype} IN (${sql.join(THUMBNAILED_IMAGES.map((type) => sql.lit(type)))}) THEN 'image'
    WHEN ${mimetype} = 'application/pdf' THEN 'pdf'
    WHEN ${mimetype} LIKE 'video/%' THEN 'video'
    WHEN ${mimetype} LIKE 'audio/%' THEN 'audio'
    WHEN ${mimetype} LIKE 'text/%' OR ${mimetype} = 'application/json' THEN 'text'
    ELSE NULL END`;
}

/** FileItem.contentTag: the first 16 hex digits of the content's SHA-256. */
const sqlContentTag = (sha256: RawBuilder<unknown>) => sql`substr(${sha256}, 1, 16)`;

/**
 * Each listing entry (migrations 08 and 16) gains `contentHash`, the whole SHA-256 of the
 * file's bytes (shared/spec/api.md, "Change feed"), as files.presenter.ts shows it. Rather
 * than a third trigger, migration 16's, which merges the fields that follow the content
 * into the entry, is rewritten to merge this one too: on SQLite each trigger that patches
 * the entry is one more write of the row per insert. Existing entries are backfilled.
 */
export function contentHashInListingsMigration(dialect: Dialect): Migration {
  const withHash = (column: (name: string) => RawBuilder<unknown>) =>
    sql`'preview', ${sqlPreview(column('mimetype'))}, 'contentTag', ${sqlContentTag(column('sha256'))}, 'contentHash', ${column('sha256')}`;
  const withoutHash = (column: (name: string) => RawBuilder<unknown>) =>
    sql`'preview', ${sqlPreview(column('mimetype'))}, 'contentTag', ${sqlContentTag(column('sha256'))}`;

  /** PostgreSQL: the trigger function of migration 16 replaced; its trigger already fires on a new sha256. */
  async function postgres(db: Kysely<any>, fields: typeof withHash, backfill: RawBuilder<unknown>): Promise<void> {
    const merged = (row: string) =>
      sql`(${sql.raw(row)}.listing_entry::jsonb || jsonb_build_object(${fields((name) => sql.raw(`${row}.${name}`))}))::text`;
    await sql`UPDATE files SET listing_entry = ${backfill}`.execute(db);
    await sql`CREATE OR REPLACE FUNCTION files_listing_entry_preview() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.listing_entry := ${merged('NEW')};
        RETURN NEW;
      END $$`.execute(db);
  }

  /**
   * SQLite: migration 16's trigger dropped and made again with the new field in its patch
   * and in its WHEN, which stops it once the entry is current (so it never feeds itself).
   */
  async function sqlite(db: Kysely<any>, withContentHash: boolean): Promise<void> {
    const patched = (column: (name: string) => RawBuilder<unknown>) =>
      withContentHash
        ? sql`json_set(listing_entry, '$.preview', ${sqlPreview(column('mimetype'))}, '$.contentTag', ${sqlContentTag(column('sha256'))}, '$.contentHash', ${column('sha256')})`
        : sql`json_set(listing_entry, '$.preview', ${sqlPreview(column('mimetype'))}, '$.contentTag', ${sqlContentTag(column('sha256'))})`;
    await sql`DROP TRIGGER files_listing_entry_preview`.execute(db);
    if (withContentHash) await sql`UPDATE files SET listing_entry = ${patched((name) => sql.ref(name))}`.execute(db);
    else await sql`UPDATE files SET listing_entry = json_remove(listing_entry, '$.contentHash')`.execute(db);
    const hashStale = withContentHash ? sql`OR json_extract(NEW.listing_entry, '$.contentHash') IS NOT NEW.sha256` : sql.raw('');
    await sql`CREATE TRIGGER files_listing_entry_preview AFTER UPDATE OF listing_entry, sha256 ON files
      WHEN json_extract(NEW.listing_entry, '$.contentTag') IS NOT ${sqlContentTag(sql.raw('NEW.sha256'))}
        OR json_extract(NEW.listing_entry, '$.preview') IS NOT ${sqlPreview(sql.raw('NEW.mimetype'))}
        OR json_type(NEW.listing_entry, '$.preview') IS NULL
        ${hashStale}
      BEGIN UPDATE files SET listing_entry = ${patched((name) => sql.raw(`NEW.${name}`))} WHERE id = NEW.id; END`.execute(db);
  }

  return {
    // As migrations 08 and 16: SQLite's migrations do not run in a transaction of their own.
    up: (db: Kysely<any>) =>
      dialect === 'postgres'
        ? postgres(db, withHash, sql`(listing_entry::jsonb || jsonb_build_object('contentHash', sha256))::text`)
        : db.transaction().execute((trx) => sqlite(trx, true)),

    down: (db: Kysely<any>) =>
      dialect === 'postgres'
        ? postgres(db, withoutHash, sql`(listing_entry::jsonb - 'contentHash')::text`)
        : db.transaction().execute((trx) => sqlite(trx, false)),
  };
}
