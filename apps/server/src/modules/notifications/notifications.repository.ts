import type { Kysely } from 'kysely';
import type { Database, NotificationsTable } from '../../db/schema.ts';

export function createNotificationsRepository(db: Kysely<Database>) {
  return {
    async insert(row: NotificationsTable): Promise<void> {
      await db.insertInto('notifications').values(row).execute();
    },

    recent(userId: string, limit: number): Promise<NotificationsTable[]> {
      return db
        .selectFrom('notifications')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(limit)
        .execute();
    },

    async unreadCount(userId: string): Promise<number> {
      const row = await db
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('user_id', '=', userId)
        .where('read_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    async markAllRead(userId: string, now: string): Promise<void> {
      await db.updateTable('notifications').set({ read_at: now }).where('user_id', '=', userId).where('read_at', 'is', null).execute();
    },
  };
}

export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
