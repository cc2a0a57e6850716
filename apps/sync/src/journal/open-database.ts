/**
 * The pair's SQLite file (one per synced pair, in the configuration folder): WAL, so a
 * reader (`cloudvault status`) never waits on a pass, and `synchronous=NORMAL`, which in WAL
 * mode loses at most the last transactions on a power cut, never the file's consistency.
 * Each part of the client creates its own tables in it.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export type SqliteDatabase = Database.Database;

/** Opens (or creates) the pair's database file, its folder private to the user. */
export function openPairDatabase(file: string, options: { readonly?: boolean } = {}): SqliteDatabase {
  if (!options.readonly) mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const db = new Database(file, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  if (!options.readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  }
  // A status reader and a running pass may meet: wait for the other's write rather than fail.
  db.pragma('busy_timeout = 5000');
  return db;
}
