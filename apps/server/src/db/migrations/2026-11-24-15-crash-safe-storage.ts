import type { Kysely } from 'kysely';

/**
 * Crash-safe storage accounting (docs/decisions/0021-crash-safe-storage.md): an upload's
 * reservation is a row with a lease its node renews, so any node can give back what a dead
 * one held; blobs whose rows are gone wait in a queue until their bytes are deleted.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('upload_reservations')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('user_id', 'varchar(64)', (col) => col.notNull().references('users.id').onDelete('cascade'))
    /** Added to users.storage_used when reserved; given back on completion (the surplus) or failure. */
    .addColumn('bytes', 'bigint', (col) => col.notNull())
    /** Where the upload's bytes go: deleted with the reservation when it expires. */
    .addColumn('blob_key', 'varchar(64)', (col) => col.notNull().unique())
    /** ISO time; past it, the uploading node is taken for dead. */
    .addColumn('lease_until', 'varchar(32)', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('upload_reservations_user_idx').on('upload_reservations').columns(['user_id', 'lease_until']).execute();
  await db.schema.createIndex('upload_reservations_lease_idx').on('upload_reservations').column('lease_until').execute();

  await db.schema
    .createTable('blob_deletions')
    .addColumn('blob_key', 'varchar(64)', (col) => col.primaryKey())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('blob_deletions').execute();
  await db.schema.dropTable('upload_reservations').execute();
}
