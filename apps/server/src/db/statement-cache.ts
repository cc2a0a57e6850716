import type { SqliteStatement } from 'kysely';
import { setBounded } from '../lib/bounded-map.ts';

/** What a cached statement needs of better-sqlite3's: Kysely's interface plus `busy` and `readonly`. */
interface Statement extends SqliteStatement {
  /** True while an iterate() over it is open; such a statement cannot run again until it ends. */
  readonly busy: boolean;
  /** Whether SQLite knows it cannot write (db/change-stamp.ts counts the others). */
  readonly readonly: boolean;
}

interface Preparer {
  prepare(sql: string): Statement;
  close(): void;
}

/**
 * better-sqlite3 with its statements kept, for Kysely's SQLite dialect, whose driver
 * prepares every query again (about 8 % of a small signed-in request's CPU:
 * bench/README.md, "Listing 100 files on 50 connections"). The least recently used are
 * dropped past `capacity`: queries with lists of varying length (`in (?, ?, …)`) each
 * make a statement of their own. A schema change (a migration) needs no flush: SQLite
 * prepares a statement again when the schema it was made for has changed, and
 * better-sqlite3 reads the columns again when that happened.
 */
export function cachingStatements(database: Preparer, capacity: number): { prepare(sql: string): Statement; close(): void } {
  const statements = new Map<string, Statement>();
  return {
    prepare(sql) {
      const cached = statements.get(sql);
      // One still being iterated (a streamed query) cannot be run again: a fresh one can.
      if (cached?.busy) return database.prepare(sql);
      // Deleted and set again: a Map iterates in insertion order, so the first key is the least recently used.
      if (cached) statements.delete(sql);
      const statement = cached ?? database.prepare(sql);
      setBounded(statements, sql, statement, capacity);
      return statement;
    },
    close() {
      statements.clear();
      database.close();
    },
  };
}
