import { type Kysely, sql, type Transaction } from 'kysely';
import type { Dialect } from './database.ts';
import type { Database } from './schema.ts';

/**
 * Locks the users' rows until the transaction ends, in id order so two transactions
 * locking several users cannot deadlock on each other. NO KEY UPDATE: inserts that only
 * reference a user (uploads, sign-ins) are not held up. SQLite runs one transaction at a
 * time per connection; with several servers on one file, a no-op write takes the file's
 * write lock first, so another process's transaction waits (busy_timeout) instead of
 * failing when it reads and then writes.
 */
export async function lockUsers(trx: Transaction<Database>, dialect: Dialect, userIds: string[]): Promise<void> {
  if (userIds.length === 0) return;
  const ids = [...new Set(userIds)].sort();
  if (dialect === 'sqlite') {
    await sql`UPDATE users SET storage_used = storage_used WHERE id = ${ids[0]}`.execute(trx);
    return;
  }
  await sql`SELECT id FROM users WHERE id IN (${sql.join(ids)}) ORDER BY id FOR NO KEY UPDATE`.execute(trx);
}

/**
 * Runs `work` in a transaction that no other tree change of the same user overlaps: moves,
 * Trash, restores and purges each check what they are about to change and then change it,
 * which two at once could undo (crossing folder moves making a cycle, a purge deleting
 * what a restore just brought back). The user's row is locked first, before any row the
 * work touches, as every transaction that frees storage does (see lockUsers).
 */
export function inUserTreeTransaction<T>(
  db: Kysely<Database>,
  dialect: Dialect,
  userId: string,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await lockUsers(trx, dialect, [userId]);
    return work(trx);
  });
}
