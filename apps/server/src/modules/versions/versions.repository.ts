import { type Kysely, sql } from 'kysely';
import { inBatches } from '../../db/batches.ts';
import { queueBlobDeletions } from '../../db/blob-deletions.ts';
import { fileChange, recordTreeChanges } from '../../db/change-journal.ts';
import type { Dialect } from '../../db/database.ts';
import { FILE_COLUMNS } from '../../db/file-columns.ts';
import { lockUsers } from '../../db/locks.ts';
import { changeStorageUsed } from '../../db/storage-usage.ts';
import type { Database, FileVersionsTable } from '../../db/schema.ts';

export type VersionRow = FileVersionsTable;

/** Earlier versions of files: queries only, scoped to the owner. */
export function createVersionsRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    listForFile(userId: string, fileId: string): Promise<VersionRow[]> {
      return db
        .selectFrom('file_versions')
        .selectAll()
        .where('user_id', '=', userId)
        .where('file_id', '=', fileId)
        .orderBy('replaced_at', 'desc')
        .orderBy('id')
        .execute();
    },

    find(userId: string, fileId: string, versionId: string): Promise<VersionRow | undefined> {
      return db
        .selectFrom('file_versions')
        .selectAll()
        .where('id', '=', versionId)
        .where('file_id', '=', fileId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },

    /**
     * The version becomes the file's content and the current content a version, in one
     * transaction, recorded as the file's `updated` with the restored size and hash.
     */
    async restore(userId: string, fileId: string, versionId: string, newVersionId: string, now: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        await lockUsers(trx, dialect, [userId]);
        const version = await trx
          .selectFrom('file_versions')
          .selectAll()
          .where('id', '=', versionId)
          .where('file_id', '=', fileId)
          .where('user_id', '=', userId)
          .executeTakeFirst();
        const file = await trx
          .selectFrom('files')
          .select(FILE_COLUMNS)
          .where('id', '=', fileId)
          .where('user_id', '=', userId)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (!version || !file) return false;
        await trx.deleteFrom('file_versions').where('id', '=', versionId).execute();
        await trx
          .insertInto('file_versions')
          .values({
            id: newVersionId,
            file_id: fileId,
            user_id: userId,
            mimetype: file.mimetype,
            size: file.size,
            sha256: file.sha256,
            crc32: file.crc32,
            blob_key: file.blob_key,
            created_at: file.updated_at,
            replaced_at: now,
          })
          .execute();
        const restored = {
          mimetype: version.mimetype,
          size: version.size,
          sha256: version.sha256,
          crc32: version.crc32,
          blob_key: version.blob_key,
          updated_at: now,
        };
        await trx.updateTable('files').set(restored).where('id', '=', fileId).execute();
        await recordTreeChanges(trx, userId, [fileChange('updated', { ...file, ...restored })], now);
        return true;
      });
    },

    /**
     * Deletes versions, gives their bytes back to the quota and queues their blobs for
     * deletion, in one transaction; answers the queued keys. Only rows this call deleted count, so a version removed twice at once is
     * given back once.
     */
    async remove(versions: Array<Pick<VersionRow, 'id' | 'user_id'>>): Promise<string[]> {
      if (versions.length === 0) return [];
      return db.transaction().execute(async (trx) => {
        // Users first, as Trash purges lock them before the rows they delete.
        await lockUsers(
          trx,
          dialect,
          versions.map((version) => version.user_id),
        );
        const deleted = await inBatches(versions, (batch) =>
          trx
            .deleteFrom('file_versions')
            .where(
              'id',
              'in',
              batch.map((version) => version.id),
            )
            .returning(['user_id', 'size', 'blob_key'])
            .execute(),
        );
        const freedByUser = new Map<string, number>();
        for (const version of deleted) freedByUser.set(version.user_id, (freedByUser.get(version.user_id) ?? 0) + Number(version.size));
        for (const [userId, freed] of freedByUser) {
          await changeStorageUsed(trx, userId, -freed);
        }
        const blobKeys = deleted.map((version) => version.blob_key);
        await queueBlobDeletions(trx, blobKeys);
        return blobKeys;
      });
    },

    /** Versions past retention: beyond the newest `keep` of their file and replaced before `before`. */
    async expired(keep: number, before: string, limit: number): Promise<VersionRow[]> {
      const result = await sql<VersionRow>`
        SELECT id, file_id, user_id, mimetype, size, sha256, crc32, blob_key, created_at, replaced_at FROM (
          SELECT v.*, ROW_NUMBER() OVER (PARTITION BY file_id ORDER BY replaced_at DESC, id) AS position FROM file_versions v
        ) ranked
        WHERE position > ${keep} AND replaced_at < ${before}
        LIMIT ${limit}`.execute(db);
      return result.rows;
    },
  };
}

export type VersionsRepository = ReturnType<typeof createVersionsRepository>;
