import type { Kysely } from 'kysely';

/**
 * Earlier versions of files (plans with versioning), and the daily figures analytics
 * charts: storage used per user and downloads per share.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('file_versions')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('file_id', 'varchar(64)', (col) => col.notNull().references('files.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(64)', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('mimetype', 'varchar(255)', (col) => col.notNull())
    .addColumn('size', 'bigint', (col) => col.notNull())
    .addColumn('sha256', 'varchar(64)', (col) => col.notNull())
    .addColumn('crc32', 'bigint', (col) => col.notNull())
    .addColumn('blob_key', 'varchar(64)', (col) => col.notNull().unique())
    /** When these bytes were uploaded. */
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    /** When newer bytes replaced them. */
    .addColumn('replaced_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('file_versions_file_idx').on('file_versions').columns(['file_id', 'replaced_at']).execute();

  await db.schema
    .createTable('storage_daily')
    .addColumn('user_id', 'varchar(64)', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('day', 'varchar(10)', (col) => col.notNull())
    .addColumn('bytes', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('storage_daily_pkey', ['user_id', 'day'])
    .execute();

  await db.schema
    .createTable('share_downloads_daily')
    .addColumn('share_id', 'varchar(64)', (col) => col.notNull().references('shares.id').onDelete('cascade'))
    .addColumn('day', 'varchar(10)', (col) => col.notNull())
    .addColumn('count', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('share_downloads_daily_pkey', ['share_id', 'day'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('share_downloads_daily').execute();
  await db.schema.dropTable('storage_daily').execute();
  await db.schema.dropTable('file_versions').execute();
}
