import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** Stored settings as saved (JSON text); merging over defaults is the service's business. */
export function createSettingsRepository(db: Kysely<Database>) {
  return {
    async find(userId: string): Promise<unknown> {
      const row = await db.selectFrom('user_settings').select('data').where('user_id', '=', userId).executeTakeFirst();
      return row ? JSON.parse(row.data) : undefined;
    },

    /** Every user's stored settings, for the Trash sweeper. */
    listAll(): Promise<Array<{ user_id: string; data: string }>> {
      return db.selectFrom('user_settings').select(['user_id', 'data']).execute();
    },

    async save(userId: string, data: unknown, now: string): Promise<void> {
      const json = JSON.stringify(data);
      await db
        .insertInto('user_settings')
        .values({ user_id: userId, data: json, updated_at: now })
        .onConflict((conflict) => conflict.column('user_id').doUpdateSet({ data: json, updated_at: now }))
        .execute();
    },
  };
}

export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
