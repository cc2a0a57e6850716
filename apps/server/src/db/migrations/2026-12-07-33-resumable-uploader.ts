import type { Kysely } from 'kysely';

/**
 * A tus upload into a folder shared with its sender as an editor is the folder owner's
 * (resumable_uploads.user_id: their quota holds it, the file is theirs), sent by another
 * account: `uploader_id` is that account, the only one whose requests reach the upload.
 * Null: the owner sent it (or a link's visitor, whose requests carry the link instead).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('resumable_uploads').addColumn('uploader_id', 'varchar(64)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('resumable_uploads').dropColumn('uploader_id').execute();
}
