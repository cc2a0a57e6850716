import type { Kysely } from 'kysely';
import type { ChangesTable, Database } from '../../db/schema.ts';

/** The change journal, read (db/change-journal.ts writes it; docs/decisions/0060-change-journal.md). */
export function createChangesRepository(db: Kysely<Database>) {
  return {
    /** The account's last number and the last one retention removed; zeros before its first change. */
    async head(userId: string): Promise<{ seq: number; prunedThrough: number }> {
      const row = await db.selectFrom('change_heads').select(['seq', 'pruned_through']).where('user_id', '=', userId).executeTakeFirst();
      return { seq: Number(row?.seq ?? 0), prunedThrough: Number(row?.pruned_through ?? 0) };
    },

    /** Up to `limit` entries after `seq`, in order: one range of the primary key. */
    async after(userId: string, seq: number, limit: number): Promise<ChangesTable[]> {
      return db
        .selectFrom('changes')
        .selectAll()
        .where('user_id', '=', userId)
        .where('seq', '>', seq)
        .orderBy('seq')
        .limit(limit)
        .execute();
    },
  };
}

export type ChangesRepository = ReturnType<typeof createChangesRepository>;
