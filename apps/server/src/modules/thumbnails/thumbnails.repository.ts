import { type Kysely, sql } from 'kysely';
import type { Database, ThumbnailsTable } from '../../db/schema.ts';

export type ThumbnailRow = ThumbnailsTable;

/** Thumbnails: queries only. A row per source blob (docs/decisions/0023-thumbnails.md). */
export function createThumbnailsRepository(db: Kysely<Database>) {
  return {
    find(blobKey: string): Promise<ThumbnailRow | undefined> {
      return db.selectFrom('thumbnails').selectAll().where('blob_key', '=', blobKey).executeTakeFirst();
    },

    /** A live file's current content, or undefined when the file is gone. */
    liveContent(fileId: string): Promise<{ blob_key: string; mimetype: string; size: number } | undefined> {
      return db
        .selectFrom('files')
        .select(['blob_key', 'mimetype', 'size'])
        .where('id', '=', fileId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
    },

    /**
     * Records the outcome of a run for a blob that a file or a version still holds: a blob
     * deleted meanwhile has had its row deleted with it (db/blob-deletions.ts), so none is
     * written for it and the caller deletes what it stored. A failure after an earlier one
     * counts up; a ready row is never replaced, so a second run at once keeps the first's
     * thumbnails and deletes its own. Answers whether this run's row was written.
     */
    async record(row: ThumbnailRow): Promise<boolean> {
      const held = sql<boolean>`EXISTS (SELECT 1 FROM files WHERE blob_key = ${row.blob_key}) OR EXISTS (SELECT 1 FROM file_versions WHERE blob_key = ${row.blob_key})`;
      return db.transaction().execute(async (trx) => {
        const existing = await trx
          .selectFrom('thumbnails')
          .select(['status', 'attempts'])
          .where('blob_key', '=', row.blob_key)
          .executeTakeFirst();
        if (existing?.status === 'ready') return false;
        if (existing) {
          const result = await trx
            .updateTable('thumbnails')
            .set({ ...row, attempts: existing.attempts + 1 })
            .where('blob_key', '=', row.blob_key)
            .where('status', '=', 'failed')
            .where('attempts', '=', existing.attempts)
            .executeTakeFirst();
          return Number(result.numUpdatedRows) === 1;
        }
        const inserted = await trx
          .insertInto('thumbnails')
          .columns(['blob_key', 'status', 'small_key', 'large_key', 'attempts', 'error', 'updated_at'])
          .expression(
            trx
              .selectNoFrom([
                sql.val(row.blob_key).as('blob_key'),
                sql.val(row.status).as('status'),
                sql.val(row.small_key).as('small_key'),
                sql.val(row.large_key).as('large_key'),
                sql.val(row.attempts).as('attempts'),
                sql.val(row.error).as('error'),
                sql.val(row.updated_at).as('updated_at'),
              ])
              .where(held),
          )
          .onConflict((conflict) => conflict.column('blob_key').doNothing())
          .executeTakeFirst();
        return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
      });
    },

    /**
     * Up to `limit` ids of live files of these types whose content has no thumbnail row, or
     * a failed one tried fewer than `maxAttempts` times (each try counts, so none comes back forever).
     */
    async candidates(options: { limit: number; mimetypes: readonly string[]; videos: boolean; maxAttempts: number }): Promise<string[]> {
      if (options.mimetypes.length === 0 && !options.videos) return [];
      const rows = await db
        .selectFrom('files')
        .leftJoin('thumbnails', 'thumbnails.blob_key', 'files.blob_key')
        .select('files.id')
        .where('files.deleted_at', 'is', null)
        .where((eb) =>
          eb.or([
            ...(options.mimetypes.length > 0 ? [eb('files.mimetype', 'in', options.mimetypes)] : []),
            ...(options.videos ? [eb('files.mimetype', 'like', 'video/%')] : []),
          ]),
        )
        .where((eb) =>
          eb.or([
            eb('thumbnails.blob_key', 'is', null),
            eb.and([eb('thumbnails.status', '=', 'failed'), eb('thumbnails.attempts', '<', options.maxAttempts)]),
          ]),
        )
        .orderBy('files.blob_key')
        .limit(options.limit)
        .execute();
      return rows.map((row) => row.id);
    },
  };
}

export type ThumbnailsRepository = ReturnType<typeof createThumbnailsRepository>;
