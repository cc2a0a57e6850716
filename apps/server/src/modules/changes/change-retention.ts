import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { CHANGE_FEED } from '../../policies.ts';

/** Entries read and removed per transaction: what one batch holds, whatever the journal holds. */
export const RETENTION_BATCH = 5000;

/**
 * The change journal's retention (docs/decisions/0060-change-journal.md): entries older than
 * CHANGE_FEED.retentionMs are removed, oldest first, a batch per transaction, and each
 * account's `pruned_through` is raised to the highest number removed in the same
 * transaction, so a cursor from before answers 410 and the client lists everything again.
 *
 * A batch locks the heads of its accounts first, in id order, as every journal write takes
 * them (db/change-journal.ts), then removes each account's entries up to that number: two
 * runs at once (two nodes, runNow beside the schedule) wait for each other there and the
 * second finds nothing left to remove; a write of the same account waits for the batch or
 * the batch for it, never both. Entries are numbered without gaps per account and removed
 * up to a number, so what is left is everything after pruned_through: a cursor the feed
 * still accepts reads every entry after it. An entry committed late with an older time than
 * those numbered before it (a long transaction) takes them with it, at most that
 * transaction's length before their time.
 */
export function createChangeRetention(deps: { db: Kysely<Database>; clock: Clock; batch?: number }) {
  const { db } = deps;
  const batch = deps.batch ?? RETENTION_BATCH;

  /** One batch: answers how many entries it removed and how many it found expired (fewer than a batch: the last). */
  async function pruneBatch(cutoff: string): Promise<{ found: number; removed: number; accounts: Set<string> }> {
    const expired = await db.selectFrom('changes').select(['user_id', 'seq']).where('at', '<', cutoff).orderBy('at').limit(batch).execute();
    const through = new Map<string, number>();
    for (const row of expired) through.set(row.user_id, Math.max(through.get(row.user_id) ?? 0, Number(row.seq)));
    const accounts = [...through.keys()].sort();
    const removed = await db.transaction().execute(async (trx) => {
      let count = 0;
      for (const userId of accounts) {
        const seq = through.get(userId)!;
        await trx
          .updateTable('change_heads')
          .set({ pruned_through: sql`CASE WHEN pruned_through < ${seq} THEN ${seq} ELSE pruned_through END` })
          .where('user_id', '=', userId)
          .execute();
      }
      for (const userId of accounts) {
        const result = await trx
          .deleteFrom('changes')
          .where('user_id', '=', userId)
          .where('seq', '<=', through.get(userId)!)
          .executeTakeFirst();
        count += Number(result.numDeletedRows);
      }
      return count;
    });
    return { found: expired.length, removed, accounts: new Set(accounts) };
  }

  return {
    /** Removes every expired entry; answers how many, and of how many accounts. */
    async prune(): Promise<{ entries: number; accounts: number }> {
      const cutoff = new Date(deps.clock.now().getTime() - CHANGE_FEED.retentionMs).toISOString();
      let entries = 0;
      const accounts = new Set<string>();
      for (;;) {
        const done = await pruneBatch(cutoff);
        entries += done.removed;
        for (const userId of done.accounts) accounts.add(userId);
        if (done.found < batch) return { entries, accounts: accounts.size };
      }
    },
  };
}

export type ChangeRetention = ReturnType<typeof createChangeRetention>;
