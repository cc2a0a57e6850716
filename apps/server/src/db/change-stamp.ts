import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Kysely's database with better-sqlite3's statements, which tell whether they write. */
interface StatementsSource {
  prepare(sql: string): SqliteStatement & { readonly readonly: boolean };
  close(): void;
}

interface RawDatabase {
  prepare(sql: string): { pluck(): { get(): unknown } };
}

/**
 * A value that differs after any change to the SQLite database, whoever made it, so a
 * cached answer built from it can be checked with one cheap statement instead of built
 * again. SQLite's data_version counts commits by other connections (another process: a
 * CLI tool, the benchmark's direct inserts); our own connection's writes are counted
 * here, at each statement that may write, as Kysely prepares it before every run: by
 * SQLite's own judgement (`readonly`), not by whether it answers rows, since an UPDATE
 * … RETURNING does both. Counting a write that is then rolled back only costs a cache miss.
 */
export function trackChanges(database: StatementsSource, raw: RawDatabase): { database: SqliteDatabase; stamp(): string } {
  const dataVersion = raw.prepare('PRAGMA data_version').pluck();
  let ownWrites = 0;
  return {
    database: {
      prepare(sql) {
        const statement = database.prepare(sql);
        if (!statement.readonly) ownWrites++;
        return statement;
      },
      close: () => database.close(),
    },
    stamp: () => `${String(dataVersion.get())}.${ownWrites}`,
  };
}
