import { sql, type Transaction } from 'kysely';
import type { Database } from './schema.ts';

/**
 * The one place `users.storage_used` changes (docs/decisions/0021-crash-safe-storage.md):
 * every caller runs inside a transaction that locked the user first (db/locks.ts), and
 * writes the change with the rows that cause it (files, versions, reservations), so the
 * counter never drifts from them by a crash in between.
 */

/** The exact bytes a user's files hold: live, in Trash, and their versions. */
export const filesTotal = (userId: ReturnType<typeof sql.ref> | string) => sql<number>`
  COALESCE((SELECT SUM(f.size) FROM files f WHERE f.user_id = ${userId}), 0)
  + COALESCE((SELECT SUM(v.size) FROM file_versions v WHERE v.user_id = ${userId}), 0)`;

/** Adds `bytes` to the user's storage_used (negative: gives them back); answers the new total. */
export async function changeStorageUsed(trx: Transaction<Database>, userId: string, bytes: number): Promise<number> {
  const user = await trx
    .updateTable('users')
    .set({ storage_used: sql`storage_used + ${bytes}` })
    .where('id', '=', userId)
    .returning('storage_used')
    .executeTakeFirstOrThrow();
  return Number(user.storage_used);
}

/** Adds `bytes` only while the total stays within `limit` (a reservation); answers whether it did. */
export async function addStorageUsedWithin(trx: Transaction<Database>, userId: string, bytes: number, limit: number): Promise<boolean> {
  const added = await trx
    .updateTable('users')
    .set({ storage_used: sql`storage_used + ${bytes}` })
    .where('id', '=', userId)
    .where(sql<boolean>`storage_used + ${bytes} <= ${limit}`)
    .executeTakeFirst();
  return Number(added.numUpdatedRows) === 1;
}

/** Sets storage_used to the user's files' exact total when it differs; answers whether it did. */
export async function recountStorageUsed(trx: Transaction<Database>, userId: string): Promise<boolean> {
  const result = await trx
    .updateTable('users')
    .set({ storage_used: filesTotal(userId) })
    .where('id', '=', userId)
    .where(sql<boolean>`storage_used <> ${filesTotal(userId)}`)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
