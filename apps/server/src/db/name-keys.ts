import { naturalSortKey } from '@cloudvault/contract/sort-keys';
import { nameKey } from '@cloudvault/contract/validation';
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * A file's or folder's columns with the keys of the name they set, if they set one: every
 * write of `name` writes `name_key` beside it (migration 2026-12-05-24), which the unique
 * indexes and every lookup by name compare (docs/decisions/0038-name-normalisation.md),
 * and `sort_key` (migration 2026-12-06-26), which sorted listings order by.
 */
export function withNameKey<T extends { name?: string }>(columns: T): T & { name_key?: string; sort_key?: string } {
  return columns.name === undefined ? columns : { ...columns, name_key: nameKey(columns.name), sort_key: naturalSortKey(columns.name) };
}

/**
 * Files and folders whose stored key is not nameKey(name), read a page of ids at a time:
 * a code path that wrote a name without its key (`npm run db:check` reports them).
 */
export async function* findStaleNameKeys(db: Kysely<Database>): AsyncGenerator<{ table: 'files' | 'folders'; id: string; name: string }> {
  for (const table of ['folders', 'files'] as const) {
    let after = '';
    for (;;) {
      const rows = await db
        .selectFrom(table)
        .select(['id', 'name', 'name_key'])
        .where('id', '>', after)
        .orderBy('id')
        .limit(1000)
        .execute();
      if (rows.length === 0) break;
      for (const row of rows) if (row.name_key !== nameKey(row.name)) yield { table, id: row.id, name: row.name };
      after = rows[rows.length - 1]!.id;
    }
  }
}

/** A row whose sort_key was missing or not its name's, and what was stored (null: none). */
export interface RepairedSortKey {
  table: 'files' | 'folders';
  id: string;
  name: string;
  stored: string | null;
}

/**
 * Files and folders whose sort_key is NULL, empty or not naturalSortKey(name) (rows written
 * without withNameKey: inserted by hand or by a script), read a page of ids at a time and
 * set right as they are found: sorted listings would put them first or out of place. The
 * key is derived from the name alone, so writing it loses nothing; a row renamed meanwhile
 * is left as its rename wrote it. Yields each row it repaired (`npm run db:check`).
 */
export async function* repairSortKeys(db: Kysely<Database>): AsyncGenerator<RepairedSortKey> {
  for (const table of ['folders', 'files'] as const) {
    let after = '';
    for (;;) {
      const rows = await db
        .selectFrom(table)
        .select(['id', 'name', 'sort_key'])
        .where('id', '>', after)
        .orderBy('id')
        .limit(1000)
        .execute();
      if (rows.length === 0) break;
      for (const row of rows) {
        const key = naturalSortKey(row.name);
        if (row.sort_key === key) continue;
        await db.updateTable(table).set({ sort_key: key }).where('id', '=', row.id).where('name', '=', row.name).execute();
        yield { table, id: row.id, name: row.name, stored: row.sort_key ?? null };
      }
      after = rows[rows.length - 1]!.id;
    }
  }
}
