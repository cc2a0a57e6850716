import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { LimitWindows } from './limit-windows.ts';

/** Ended windows are deleted at most this often per node, so rows do not pile up. */
const SWEEP_EVERY_MS = 15 * 60 * 1000;

/**
 * Limit windows as rows of `limit_windows`, for nodes that share a database and no Redis
 * (docs/decisions/0019). Counting is one upsert on SQLite and PostgreSQL alike: it starts
 * a window, adds to a running one, or (at the cap) changes nothing and returns no row.
 */
export function createDatabaseLimitWindows(db: Kysely<Database>, clock: Clock): LimitWindows {
  let lastSweep = Number.NEGATIVE_INFINITY;

  async function sweepEnded(now: Date) {
    if (now.getTime() - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = now.getTime();
    await db.deleteFrom('limit_windows').where('ends_at', '<=', now.toISOString()).execute();
  }

  return {
    async count(key, windowMs, cap) {
      const now = clock.now();
      await sweepEnded(now);
      const nowIso = now.toISOString();
      const ended = sql<boolean>`limit_windows.ends_at <= ${nowIso}`;
      const counted = await db
        .insertInto('limit_windows')
        .values({ key, count: 1, ends_at: new Date(now.getTime() + windowMs).toISOString() })
        .onConflict((conflict) => {
          const update = conflict.column('key').doUpdateSet({
            count: sql<number>`case when ${ended} then 1 else limit_windows.count + 1 end`,
            ends_at: sql<string>`case when ${ended} then excluded.ends_at else limit_windows.ends_at end`,
          });
          return cap === undefined ? update : update.where(sql<boolean>`${ended} or limit_windows.count < ${cap}`);
        })
        .returning(['count', 'ends_at'])
        .executeTakeFirst();
      if (counted) return { counted: true, count: counted.count, endsAt: Date.parse(counted.ends_at) };
      const full = await db.selectFrom('limit_windows').select(['count', 'ends_at']).where('key', '=', key).executeTakeFirst();
      // Ended or cleared since the upsert: the refusal stands, with nothing left to wait.
      return { counted: false, count: full?.count ?? 0, endsAt: full ? Date.parse(full.ends_at) : now.getTime() };
    },

    async uncount(key) {
      await db
        .updateTable('limit_windows')
        .set({ count: sql<number>`count - 1` })
        .where('key', '=', key)
        .where('count', '>', 0)
        .where('ends_at', '>', clock.now().toISOString())
        .execute();
    },

    async takeLease(key, holder, leaseMs) {
      const now = clock.now();
      const taken = await db
        .insertInto('limit_windows')
        .values({ key, count: 1, ends_at: new Date(now.getTime() + leaseMs).toISOString(), holder })
        .onConflict((conflict) =>
          conflict
            .column('key')
            .doUpdateSet({ count: 1, ends_at: sql<string>`excluded.ends_at`, holder: sql<string>`excluded.holder` })
            .where('limit_windows.ends_at', '<=', now.toISOString()),
        )
        .returning('key')
        .executeTakeFirst();
      return taken !== undefined;
    },

    async renewLease(key, holder, leaseMs) {
      const now = clock.now();
      const result = await db
        .updateTable('limit_windows')
        .set({ ends_at: new Date(now.getTime() + leaseMs).toISOString() })
        .where('key', '=', key)
        .where('holder', '=', holder)
        .where('ends_at', '>', now.toISOString())
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async releaseLease(key, holder) {
      await db.deleteFrom('limit_windows').where('key', '=', key).where('holder', '=', holder).execute();
    },

    async clear(key) {
      await db.deleteFrom('limit_windows').where('key', '=', key).execute();
    },

    // The database belongs to the container, which closes it.
    close: async () => {},
  };
}
