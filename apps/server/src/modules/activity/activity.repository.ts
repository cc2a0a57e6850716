import type { Kysely } from 'kysely';
import type { ActivityTable, Database } from '../../db/schema.ts';

export function createActivityRepository(db: Kysely<Database>) {
  return {
    async insert(row: ActivityTable): Promise<void> {
      await db.insertInto('activity').values(row).execute();
    },

    /** Whether the user has an entry of this type with exactly these details (stored as this JSON text). */
    async has(userId: string, type: string, detailsJson: string): Promise<boolean> {
      const row = await db
        .selectFrom('activity')
        .select('id')
        .where('user_id', '=', userId)
        .where('type', '=', type)
        .where('details', '=', detailsJson)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    recent(userId: string, limit: number): Promise<ActivityTable[]> {
      return db
        .selectFrom('activity')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(limit)
        .execute();
    },
  };
}

export type ActivityRepository = ReturnType<typeof createActivityRepository>;
