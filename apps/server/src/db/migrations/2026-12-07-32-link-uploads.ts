import type { Kysely } from 'kysely';

/**
 * Resumable uploads through an upload or edit link (issue 38, "Links, with roles"): a tus
 * upload is the owner's (resumable_uploads.user_id), and this row ties it to the link it
 * came through, so that only requests carrying that link's token reach it, and says who
 * sent it. `counted` is set once by whichever node finishes the upload first: the link's
 * upload_count and the owner's notice count each file once, however many requests or nodes
 * see it finish. Each request reads the link again, so a revoked link stops its uploads at
 * once; a share row that goes takes these rows with it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('link_uploads')
    .addColumn('upload_id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('share_id', 'varchar(64)', (col) => col.notNull().references('shares.id').onDelete('cascade'))
    .addColumn('uploader_name', 'varchar(100)')
    .addColumn('counted', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('link_uploads_share_idx').on('link_uploads').column('share_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('link_uploads').execute();
}
