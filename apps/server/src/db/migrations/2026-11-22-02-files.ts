import { type Kysely, sql } from 'kysely';

/**
 * Folders and files. Deleted items stay as rows with `deleted_at` set (Trash);
 * `trashed_root` marks the item the user deleted, as opposed to the contents that
 * travelled with it. Sibling names are unique among live items, case-insensitively, so
 * a zip of the folder never holds two entries that collide on a case-insensitive disk.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('folders')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('user_id', 'varchar(64)', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('parent_id', 'varchar(64)', (col) => col.references('folders.id').onDelete('cascade'))
    .addColumn('name', 'varchar(1024)', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('deleted_at', 'varchar(32)')
    .addColumn('trashed_root', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('folders_user_parent_idx').on('folders').columns(['user_id', 'parent_id']).execute();
  await sql`CREATE UNIQUE INDEX folders_live_name_idx ON folders (user_id, coalesce(parent_id, ''), lower(name)) WHERE deleted_at IS NULL`.execute(
    db,
  );

  await db.schema
    .createTable('files')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('user_id', 'varchar(64)', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('folder_id', 'varchar(64)', (col) => col.references('folders.id').onDelete('cascade'))
    .addColumn('name', 'varchar(1024)', (col) => col.notNull())
    .addColumn('mimetype', 'varchar(255)', (col) => col.notNull())
    .addColumn('category', 'varchar(16)', (col) => col.notNull())
    .addColumn('size', 'bigint', (col) => col.notNull())
    .addColumn('sha256', 'varchar(64)', (col) => col.notNull())
    .addColumn('crc32', 'bigint', (col) => col.notNull())
    .addColumn('blob_key', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('deleted_at', 'varchar(32)')
    .addColumn('trashed_root', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('files_user_folder_idx').on('files').columns(['user_id', 'folder_id']).execute();
  await sql`CREATE UNIQUE INDEX files_live_name_idx ON files (user_id, coalesce(folder_id, ''), lower(name)) WHERE deleted_at IS NULL`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('files').execute();
  await db.schema.dropTable('folders').execute();
}
