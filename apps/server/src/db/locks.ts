import { type Kysely, sql, type Transaction } from 'kysely';
import type { Dialect } from './database.ts';
import type { Database } from './schema.ts';

/**
 * Runs `work` in a transaction that no other tree change of the same user overlaps: moves,
 * Trash, restores and purges each check what they are about to change and then change it,
 * which two at once could undo (crossing folder moves making a cycle, a purge deleting
 * what a restore just brought back). PostgreSQL locks the user's row until the end;
 * SQLite runs one transaction at a time already (Kysely's driver holds its one connection).
 */
export function inUserTreeTransaction<T>(db: Kysely<Database>, dialect: Dialect, userId: string, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    if (dialect === 'postgres') await sql`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`.execute(trx);
    return work(trx);
  });
}
