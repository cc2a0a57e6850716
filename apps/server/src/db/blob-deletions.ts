import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import { inBatches } from './batches.ts';
import type { Database } from './schema.ts';

/**
 * Queues the thumbnails of these source blobs (docs/decisions/0023-thumbnails.md) and
 * deletes their rows: a thumbnail goes with the bytes it was made from.
 */
async function queueThumbnailDeletions(trx: Transaction<Database> | Kysely<Database>, sources: RawBuilder<unknown>): Promise<void> {
  await sql`
    INSERT INTO blob_deletions (blob_key)
    SELECT small_key FROM thumbnails WHERE blob_key IN (${sources}) AND small_key IS NOT NULL
    UNION SELECT large_key FROM thumbnails WHERE blob_key IN (${sources}) AND large_key IS NOT NULL
    ON CONFLICT (blob_key) DO NOTHING`.execute(trx);
  await sql`DELETE FROM thumbnails WHERE blob_key IN (${sources})`.execute(trx);
}

/**
 * Queues blobs for deletion in the transaction that deletes the rows pointing at them, so
 * a process that dies after the commit leaves the keys to the blob-deletion job instead of
 * unreferenced bytes (docs/decisions/0021-crash-safe-storage.md), their thumbnails with
 * them. Queuing a key twice is a no-op.
 */
export async function queueBlobDeletions(trx: Transaction<Database> | Kysely<Database>, blobKeys: readonly string[]): Promise<void> {
  await inBatches(blobKeys, async (batch) => {
    await trx
      .insertInto('blob_deletions')
      .values(batch.map((blob_key) => ({ blob_key })))
      .onConflict((conflict) => conflict.column('blob_key').doNothing())
      .execute();
    await queueThumbnailDeletions(trx, sql.join(batch));
  });
}

/** Queues every blob of a user's files, versions and uploads in progress, and their thumbnails, without reading the keys out. */
export async function queueUserBlobDeletions(trx: Transaction<Database>, userId: string): Promise<void> {
  await queueThumbnailDeletions(
    trx,
    sql`SELECT blob_key FROM files WHERE user_id = ${userId} UNION SELECT blob_key FROM file_versions WHERE user_id = ${userId}`,
  );
  await sql`
    INSERT INTO blob_deletions (blob_key)
    SELECT blob_key FROM files WHERE user_id = ${userId}
    UNION SELECT blob_key FROM file_versions WHERE user_id = ${userId}
    UNION SELECT blob_key FROM upload_reservations WHERE user_id = ${userId}
    ON CONFLICT (blob_key) DO NOTHING`.execute(trx);
}
