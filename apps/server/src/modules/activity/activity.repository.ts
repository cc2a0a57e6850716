import type { Kysely } from 'kysely';
import type { ActivityTable, Database } from '../../db/schema.ts';

export function createActivityRepository(db: Kysely<Database>) {
  return {
    async insert(row: ActivityTable): Promise<void> {
      await db.insertInto('activity').values(row).execute();
    },

    recent(userId: string, limit: number): Promise<ActivityTable[]> {
      return db.selectFrom('activity').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
    },
  };
}

export type ActivityRepository = ReturnType<typeof createActivityRepository>;
