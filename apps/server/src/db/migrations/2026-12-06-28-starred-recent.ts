import { type Kysely, sql } from 'kysely';

/**
 * Starred and Recent (docs/api.md#starred, docs/api.md#recent).
 *
 * `stars`: one row per starred file or folder, the item in `file_id` or `folder_id` (the
 * other null). Each is a foreign key that cascades, so a star goes with its item however the
 * item is deleted for good (Trash purged, emptied or expired, an account deleted, an
 * upload discarded) without any of those paths knowing stars exist
 * (docs/decisions/0052-starred-and-recent.md). A star of an item in Trash stays, hidden,
 * and shows again when the item is restored. Unique per item and user; (item, user)
 * also answers a listing's "is it starred" and the cascade's lookup.
 *
 * `file_opens`: when the owner last opened each file through the app (viewer or download),
 * written at most once a minute per file; Recent merges it with files.updated_at, read on
 * files_live_recent_idx.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('stars')
    .addColumn('user_id', 'varchar(64)', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('file_id', 'varchar(64)', (col) => col.references('files.id').onDelete('cascade'))
    .addColumn('folder_id', 'varchar(64)', (col) => col.references('folders.id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addCheckConstraint('stars_one_item', sql`(file_id IS NULL) <> (folder_id IS NULL)`)
    .execute();
  await db.schema.createIndex('stars_file_idx').on('stars').columns(['file_id', 'user_id']).unique().execute();
  await db.schema.createIndex('stars_folder_idx').on('stars').columns(['folder_id', 'user_id']).unique().execute();
  await db.schema.createIndex('stars_user_recent_idx').on('stars').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('file_opens')
    .addColumn('file_id', 'varchar(64)', (col) => col.primaryKey().references('files.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(64)', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('opened_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('file_opens_user_recent_idx').on('file_opens').columns(['user_id', 'opened_at']).execute();
  await sql`CREATE INDEX files_live_recent_idx ON files (user_id, updated_at) WHERE deleted_at IS NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX files_live_recent_idx`.execute(db);
  await db.schema.dropTable('file_opens').execute();
  await db.schema.dropTable('stars').execute();
}
