import { type Kysely, sql } from 'kysely';
import { inBatches } from '../../db/batches.ts';
import { queueBlobDeletions } from '../../db/blob-deletions.ts';
import type { Dialect } from '../../db/database.ts';
import { lockUsers } from '../../db/locks.ts';
import { changeStorageUsed, filesTotal, recountStorageUsed } from '../../db/storage-usage.ts';
import type { Database } from '../../db/schema.ts';

/**
 * The queries behind the storage jobs (docs/decisions/0021-crash-safe-storage.md): expired
 * reservations, the drift of storage_used, the blob-deletion queue and which blob keys any
 * row still references.
 */
export function createStorageUpkeepRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    /** Reservations whose lease ran out before `now`, oldest first. */
    expiredReservations(now: string, limit: number): Promise<Array<{ id: string; user_id: string }>> {
      return db
        .selectFrom('upload_reservations')
        .select(['id', 'user_id'])
        .where('lease_until', '<', now)
        .orderBy('lease_until')
        .limit(limit)
        .execute();
    },

    /**
     * Gives back an expired reservation's bytes and queues its blob, in one transaction.
     * Only the transaction that deletes the row does so, so two nodes at once give back once;
     * answers the blob key then, undefined otherwise (renewed, settled or taken meanwhile).
     */
    giveBackExpired(reservation: { id: string; user_id: string }, now: string): Promise<string | undefined> {
      return db.transaction().execute(async (trx) => {
        await lockUsers(trx, dialect, [reservation.user_id]);
        const gone = await trx
          .deleteFrom('upload_reservations')
          .where('id', '=', reservation.id)
          .where('lease_until', '<', now)
          .returning(['bytes', 'blob_key'])
          .executeTakeFirst();
        if (!gone) return undefined;
        await changeStorageUsed(trx, reservation.user_id, -Number(gone.bytes));
        await queueBlobDeletions(trx, [gone.blob_key]);
        return gone.blob_key;
      });
    },

    /**
     * Users after `afterId` (in id order) whose storage_used differs from their files' total
     * and who have no upload in progress: candidates, checked again under lock by settleDrift.
     */
    async driftingUsers(afterId: string, limit: number): Promise<string[]> {
      const { rows } = await sql<{ id: string }>`
        SELECT u.id FROM users u
        WHERE u.id > ${afterId}
          AND NOT EXISTS (SELECT 1 FROM upload_reservations r WHERE r.user_id = u.id)
          AND u.storage_used <> ${filesTotal(sql.ref('u.id'))}
        ORDER BY u.id
        LIMIT ${limit}`.execute(db);
      return rows.map((row) => row.id);
    },

    /**
     * Sets the user's storage_used to their files' total when no upload of theirs is in
     * progress, with the user locked as every change of storage_used does, so nothing moves
     * between the check and the write. Answers whether it changed.
     */
    settleDrift(userId: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        await lockUsers(trx, dialect, [userId]);
        const uploading = await trx
          .selectFrom('upload_reservations')
          .select('id')
          .where('user_id', '=', userId)
          .limit(1)
          .executeTakeFirst();
        if (uploading) return false;
        return recountStorageUsed(trx, userId);
      });
    },

    /** A page of the blob-deletion queue, in key order after `afterKey`. */
    async queuedBlobDeletions(afterKey: string, limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom('blob_deletions')
        .select('blob_key')
        .where('blob_key', '>', afterKey)
        .orderBy('blob_key')
        .limit(limit)
        .execute();
      return rows.map((row) => row.blob_key);
    },

    /** Drops keys from the queue once their bytes are gone. */
    async dequeueBlobDeletions(keys: readonly string[]): Promise<void> {
      await inBatches(keys, async (batch) => {
        await db.deleteFrom('blob_deletions').where('blob_key', 'in', batch).execute();
      });
    },

    /** Which of the keys a file, a version, a thumbnail, an upload in progress or the deletion queue names. */
    async referencedKeys(keys: readonly string[]): Promise<Set<string>> {
      const rows = await inBatches(keys, (batch) =>
        db
          .selectFrom('files')
          .select('blob_key')
          .where('blob_key', 'in', batch)
          .union(db.selectFrom('file_versions').select('blob_key').where('blob_key', 'in', batch))
          .union(db.selectFrom('upload_reservations').select('blob_key').where('blob_key', 'in', batch))
          .union(db.selectFrom('blob_deletions').select('blob_key').where('blob_key', 'in', batch))
          .union(
            db.selectFrom('thumbnails').select('small_key as blob_key').where('small_key', 'in', batch).$narrowType<{ blob_key: string }>(),
          )
          .union(
            db.selectFrom('thumbnails').select('large_key as blob_key').where('large_key', 'in', batch).$narrowType<{ blob_key: string }>(),
          )
          .execute(),
      );
      return new Set(rows.map((row) => row.blob_key));
    },

    /** Whether an upload in progress writes this blob. */
    async isReserved(key: string): Promise<boolean> {
      return (await db.selectFrom('upload_reservations').select('id').where('blob_key', '=', key).executeTakeFirst()) !== undefined;
    },

    /** A page of the blob keys files, versions and thumbnails point at, in key order after `afterKey`. */
    async referencedByRows(afterKey: string, limit: number): Promise<string[]> {
      const { rows } = await sql<{ blob_key: string }>`
        SELECT blob_key FROM (
          SELECT blob_key FROM files UNION SELECT blob_key FROM file_versions
          UNION SELECT small_key FROM thumbnails WHERE small_key IS NOT NULL UNION SELECT large_key FROM thumbnails WHERE large_key IS NOT NULL
        ) k
        WHERE blob_key > ${afterKey} ORDER BY blob_key LIMIT ${limit}`.execute(db);
      return rows.map((row) => row.blob_key);
    },
  };
}

export type StorageUpkeepRepository = ReturnType<typeof createStorageUpkeepRepository>;
