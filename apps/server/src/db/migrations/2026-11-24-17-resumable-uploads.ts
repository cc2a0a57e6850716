import type { Kysely } from 'kysely';

/**
 * tus uploads at /api/uploads (docs/decisions/0025-resumable-uploads.md): what an upload was
 * created with, whose it is, the hash of the bytes received so far and, once finished, the
 * file it became. Its quota and upload slot are an upload_reservations row leased until expiry.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('resumable_uploads')
    /** The upload's id in its URL, and the blob key its bytes end up under. */
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('user_id', 'varchar(64)', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('reservation_id', 'varchar(64)', (col) => col.notNull())
    .addColumn('folder_id', 'varchar(64)')
    .addColumn('file_name', 'varchar(1024)', (col) => col.notNull())
    .addColumn('file_type', 'varchar(255)')
    .addColumn('length', 'bigint', (col) => col.notNull())
    /** Bytes the saved hash state covers; the store may hold more after a failed write. */
    .addColumn('hashed_bytes', 'bigint', (col) => col.notNull().defaultTo(0))
    /** The sha256 state after hashed_bytes, base64; null when the hashing cannot export it. */
    .addColumn('sha256_state', 'varchar(512)')
    .addColumn('crc32', 'bigint', (col) => col.notNull().defaultTo(0))
    /** The file (or, for a new version, the file) it became; null while unfinished. */
    .addColumn('file_id', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('expires_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('resumable_uploads_expiry_idx').on('resumable_uploads').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('resumable_uploads').execute();
}
