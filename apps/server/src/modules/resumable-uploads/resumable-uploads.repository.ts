import type { Kysely, Selectable } from 'kysely';
import type { Database, ResumableUploadsTable } from '../../db/schema.ts';

export type ResumableUploadRow = Selectable<ResumableUploadsTable>;

/** tus uploads' rows (docs/decisions/0025-resumable-uploads.md): any node reads what another created. */
export function createResumableUploadsRepository(db: Kysely<Database>) {
  return {
    async insert(row: ResumableUploadRow): Promise<void> {
      await db.insertInto('resumable_uploads').values(row).execute();
    },

    /**
     * The upload the user sends: their own, or one into a folder they edit (uploader_id);
     * another user's is undefined, as a missing one.
     */
    find(userId: string, id: string): Promise<ResumableUploadRow | undefined> {
      return db
        .selectFrom('resumable_uploads')
        .selectAll()
        .where('id', '=', id)
        .where((eb) => eb.or([eb('uploader_id', '=', userId), eb.and([eb('uploader_id', 'is', null), eb('user_id', '=', userId)])]))
        .executeTakeFirst();
    },

    findById(id: string): Promise<ResumableUploadRow | undefined> {
      return db.selectFrom('resumable_uploads').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** The hash state after `hashedBytes`, saved only if the row still covers `fromBytes` (no other writer moved it). */
    async saveHashState(
      id: string,
      fromBytes: number,
      state: { hashedBytes: number; sha256State: string | null; crc32: number },
    ): Promise<void> {
      await db
        .updateTable('resumable_uploads')
        .set({ hashed_bytes: state.hashedBytes, sha256_state: state.sha256State, crc32: state.crc32 })
        .where('id', '=', id)
        .where('hashed_bytes', '=', fromBytes)
        .execute();
    },

    async markFinished(id: string, fileId: string): Promise<void> {
      await db.updateTable('resumable_uploads').set({ file_id: fileId }).where('id', '=', id).execute();
    },

    /**
     * The file an earlier finishing run listed under `listedId`: the new file of that id,
     * or the file that got a new version of that id.
     */
    async listedAs(userId: string, listedId: string): Promise<string | undefined> {
      const file = await db.selectFrom('files').select('id').where('id', '=', listedId).where('user_id', '=', userId).executeTakeFirst();
      if (file) return file.id;
      const version = await db
        .selectFrom('file_versions')
        .select('file_id')
        .where('id', '=', listedId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return version?.file_id;
    },

    async delete(id: string): Promise<void> {
      await db.deleteFrom('resumable_uploads').where('id', '=', id).execute();
    },

    /** Uploads past their expiry, finished or not, oldest first. */
    expired(now: string, limit: number): Promise<ResumableUploadRow[]> {
      return db.selectFrom('resumable_uploads').selectAll().where('expires_at', '<=', now).orderBy('expires_at').limit(limit).execute();
    },
  };
}

export type ResumableUploadsRepository = ReturnType<typeof createResumableUploadsRepository>;
