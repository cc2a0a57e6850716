import { type Kysely, type Migration, type RawBuilder, sql } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

/** The image types sharp decodes (prebuilt libvips) and SVG, rasterised: the ones with a thumbnail. */
const THUMBNAILED_IMAGES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif', 'image/tiff', 'image/svg+xml'];

/** FileItem.preview from a mimetype: previewOf (lib/content-types.ts) in SQL, compared with it in json-listing.test.ts. */
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
 * Thumbnails (docs/decisions/0023-thumbnails.md). Each stored blob gets at most one row:
 * its two WebP thumbnails' keys once made, or a failure, recorded so it is not retried
 * forever. A blob's row goes when the blob is queued for deletion (db/blob-deletions.ts).
 *
 * Each listing entry (migration 08) gains `preview` and `contentTag`. They are merged into
 * the entry the earlier triggers write, by triggers of their own that run after those, so
 * this migration need not repeat how an entry is built; updating `sha256` (a new or
 * restored version) refreshes the tag.
 */
export function thumbnailsMigration(dialect: Dialect): Migration {
  const fields = (column: (name: string) => RawBuilder<unknown>) =>
    sql`'preview', ${sqlPreview(column('mimetype'))}, 'contentTag', ${sqlContentTag(column('sha256'))}`;

  const addPreviews = async (db: Kysely<any>) => {
    await db.schema
      .createTable('thumbnails')
      .addColumn('blob_key', 'varchar(64)', (col) => col.primaryKey())
      .addColumn('status', 'varchar(16)', (col) => col.notNull())
      .addColumn('small_key', 'varchar(64)')
      .addColumn('large_key', 'varchar(64)')
      .addColumn('attempts', 'integer', (col) => col.notNull())
      .addColumn('error', 'varchar(500)')
      .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
      .execute();

    if (dialect === 'postgres') {
      const merged = (row: string) =>
        sql`(${sql.raw(row)}.listing_entry::jsonb || jsonb_build_object(${fields((name) => sql.raw(`${row}.${name}`))}))::text`;
      await sql`UPDATE files SET listing_entry = ${merged('files')}`.execute(db);
      // Named to sort after files_listing_entry: PostgreSQL runs a table's BEFORE triggers in name order.
      await sql`CREATE FUNCTION files_listing_entry_preview() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          NEW.listing_entry := ${merged('NEW')};
          RETURN NEW;
        END $$`.execute(db);
      await sql`CREATE TRIGGER files_listing_entry_preview BEFORE INSERT OR UPDATE OF id, name, mimetype, size, folder_id, created_at, updated_at, sha256 ON files
        FOR EACH ROW EXECUTE FUNCTION files_listing_entry_preview()`.execute(db);
      return;
    }
    // json_set, not json_patch: a patch's null would remove the key instead of writing null.
    const patched = (column: (name: string) => RawBuilder<unknown>) =>
      sql`json_set(listing_entry, '$.preview', ${sqlPreview(column('mimetype'))}, '$.contentTag', ${sqlContentTag(column('sha256'))})`;
    await sql`UPDATE files SET listing_entry = ${patched((name) => sql.ref(name))}`.execute(db);
    // Migration 08's triggers rewrite listing_entry after every insert and listed update; this
    // one follows each such write (and a new sha256). Its WHEN stops it once the entry is current,
    // so it never feeds itself whatever the recursive_triggers setting.
    await sql`CREATE TRIGGER files_listing_entry_preview AFTER UPDATE OF listing_entry, sha256 ON files
      WHEN json_extract(NEW.listing_entry, '$.contentTag') IS NOT ${sqlContentTag(sql.raw('NEW.sha256'))}
        OR json_extract(NEW.listing_entry, '$.preview') IS NOT ${sqlPreview(sql.raw('NEW.mimetype'))}
        OR json_type(NEW.listing_entry, '$.preview') IS NULL
      BEGIN UPDATE files SET listing_entry = ${patched((name) => sql.raw(`NEW.${name}`))} WHERE id = NEW.id; END`.execute(db);
  };

  return {
    // As migration 08: SQLite's migrations do not run in a transaction of their own.
    up: (db: Kysely<any>) => (dialect === 'postgres' ? addPreviews(db) : db.transaction().execute(addPreviews)),

    async down(db: Kysely<any>): Promise<void> {
      if (dialect === 'postgres') {
        await sql`DROP TRIGGER files_listing_entry_preview ON files`.execute(db);
        await sql`DROP FUNCTION files_listing_entry_preview()`.execute(db);
      } else {
        await sql`DROP TRIGGER files_listing_entry_preview`.execute(db);
      }
      await db.schema.dropTable('thumbnails').execute();
    },
  };
}
