import type { Kysely } from 'kysely';
import type { Database, MailQueueTable } from '../../db/schema.ts';

export type QueuedMail = MailQueueTable;

/** Outgoing messages until they are sent: a failed send waits for its next attempt here. */
export function createMailRepository(db: Kysely<Database>) {
  return {
    async enqueue(row: QueuedMail): Promise<void> {
      await db.insertInto('mail_queue').values(row).execute();
    },

    /** Unsent messages whose next attempt is due, fewer than `maxAttempts` tried. */
    due(now: string, maxAttempts: number, limit: number): Promise<QueuedMail[]> {
      return db
        .selectFrom('mail_queue')
        .selectAll()
        .where('sent_at', 'is', null)
        .where('attempts', '<', maxAttempts)
        .where('next_attempt_at', '<=', now)
        .orderBy('next_attempt_at')
        .limit(limit)
        .execute();
    },

    /** Claims a message for one attempt: false when another attempt took it first. */
    async claim(id: string, attempts: number, nextAttemptAt: string): Promise<boolean> {
      const result = await db
        .updateTable('mail_queue')
        .set({ attempts: attempts + 1, next_attempt_at: nextAttemptAt })
        .where('id', '=', id)
        .where('attempts', '=', attempts)
        .where('sent_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Unsent messages, and those among them whose last attempt failed. */
    async depth(): Promise<{ pending: number; failing: number }> {
      const row = await db
        .selectFrom('mail_queue')
        .select([(eb) => eb.fn.countAll<number>().as('pending'), (eb) => eb.fn.count<number>('last_error').as('failing')])
        .where('sent_at', 'is', null)
        .executeTakeFirstOrThrow();
      return { pending: Number(row.pending), failing: Number(row.failing) };
    },

    async markSent(id: string, now: string): Promise<void> {
      await db.updateTable('mail_queue').set({ sent_at: now, last_error: null }).where('id', '=', id).execute();
    },

    async markFailed(id: string, error: string): Promise<void> {
      await db
        .updateTable('mail_queue')
        .set({ last_error: error.slice(0, 2000) })
        .where('id', '=', id)
        .execute();
    },
  };
}

export type MailRepository = ReturnType<typeof createMailRepository>;
