import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** The daily figures behind analytics, and the live data they are read with. */
export function createAnalyticsRepository(db: Kysely<Database>) {
  return {
    /**
     * Today's storage figure for every user (the latest value of the day wins). Safe to run
     * twice at once: an upsert, writing rows in user order so two runs lock them in the same
     * order and cannot deadlock on PostgreSQL.
     */
    async snapshotAllUsers(day: string): Promise<void> {
      await sql`
        INSERT INTO storage_daily (user_id, day, bytes)
        SELECT id, ${day}, storage_used FROM users WHERE true ORDER BY id
        -- (SQLite needs a WHERE before ON CONFLICT in INSERT ... SELECT to parse it as an upsert.)
        ON CONFLICT (user_id, day) DO UPDATE SET bytes = excluded.bytes`.execute(db);
      // The day's total for the operator console, from the rows just written (an upsert too).
      await sql`
        INSERT INTO storage_daily_totals (day, bytes)
        SELECT ${day}, coalesce(sum(bytes), 0) FROM storage_daily WHERE day = ${day}
        ON CONFLICT (day) DO UPDATE SET bytes = excluded.bytes`.execute(db);
    },

    async snapshotUser(userId: string, day: string): Promise<void> {
      await sql`
        INSERT INTO storage_daily (user_id, day, bytes)
        SELECT id, ${day}, storage_used FROM users WHERE id = ${userId}
        ON CONFLICT (user_id, day) DO UPDATE SET bytes = excluded.bytes`.execute(db);
    },

    async countShareDownload(shareId: string, day: string): Promise<void> {
      await db
        .insertInto('share_downloads_daily')
        .values({ share_id: shareId, day, count: 1 })
        .onConflict((conflict) => conflict.columns(['share_id', 'day']).doUpdateSet({ count: sql`share_downloads_daily.count + 1` }))
        .execute();
    },

    storageSince(userId: string, fromDay: string) {
      return db
        .selectFrom('storage_daily')
        .select(['day', 'bytes'])
        .where('user_id', '=', userId)
        .where('day', '>=', fromDay)
        .orderBy('day')
        .execute();
    },

    byCategory(userId: string) {
      return db
        .selectFrom('files')
        .select(['category', (eb) => eb.fn.countAll<number>().as('files'), (eb) => eb.fn.sum<number>('size').as('bytes')])
        .where('user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .groupBy('category')
        .orderBy('bytes', 'desc')
        .execute();
    },

    largestFiles(userId: string, limit: number) {
      return db
        .selectFrom('files')
        .select(['id', 'name', 'size', 'folder_id'])
        .where('user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .orderBy('size', 'desc')
        .orderBy('id')
        .limit(limit)
        .execute();
    },

    liveFolders(userId: string) {
      return db
        .selectFrom('folders')
        .select(['id', 'name', 'parent_id'])
        .where('user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .execute();
    },

    /** Bytes of live files directly in each folder. */
    bytesPerFolder(userId: string) {
      return db
        .selectFrom('files')
        .select(['folder_id', (eb) => eb.fn.sum<number>('size').as('bytes')])
        .where('user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .where('folder_id', 'is not', null)
        .groupBy('folder_id')
        .execute();
    },

    shareDownloadsSince(userId: string, fromDay: string) {
      return db
        .selectFrom('share_downloads_daily')
        .innerJoin('shares', 'shares.id', 'share_downloads_daily.share_id')
        .leftJoin('files', 'files.id', 'shares.file_id')
        .leftJoin('folders', 'folders.id', 'shares.folder_id')
        .select([
          'shares.id as share_id',
          'share_downloads_daily.day',
          'share_downloads_daily.count',
          sql<string>`coalesce(files.name, folders.name)`.as('name'),
        ])
        .where('shares.user_id', '=', userId)
        .where('share_downloads_daily.day', '>=', fromDay)
        .orderBy('share_downloads_daily.day')
        .execute();
    },
  };
}

export type AnalyticsRepository = ReturnType<typeof createAnalyticsRepository>;
