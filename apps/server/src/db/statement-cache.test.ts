import SqliteDatabase from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cachingStatements } from './statement-cache.ts';

let database: SqliteDatabase.Database;
let prepared: string[];
/** The real database, counting the statements it prepares. */
const counting = () => ({
  prepare: (sql: string) => {
    prepared.push(sql);
    return database.prepare(sql);
  },
  close: () => database.close(),
});

beforeEach(() => {
  database = new SqliteDatabase(':memory:');
  database.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT)');
  database.exec("INSERT INTO items (name) VALUES ('a'), ('b'), ('c')");
  prepared = [];
});
afterEach(() => {
  if (database.open) database.close();
});

describe('cachingStatements', () => {
  it('prepares a query once and answers it again from the same statement', () => {
    const cached = cachingStatements(counting(), 10);
    const first = cached.prepare('SELECT name FROM items WHERE id = ?');
    expect(first.all([1])).toEqual([{ name: 'a' }]);
    expect(cached.prepare('SELECT name FROM items WHERE id = ?').all([2])).toEqual([{ name: 'b' }]);
    expect(prepared).toHaveLength(1);
  });

  it('keeps at most `capacity` statements, dropping the least recently used', () => {
    const cached = cachingStatements(counting(), 2);
    cached.prepare('SELECT 1');
    cached.prepare('SELECT 2');
    cached.prepare('SELECT 1');
    cached.prepare('SELECT 3');
    cached.prepare('SELECT 1');
    expect(prepared).toEqual(['SELECT 1', 'SELECT 2', 'SELECT 3']);
    cached.prepare('SELECT 2');
    expect(prepared).toEqual(['SELECT 1', 'SELECT 2', 'SELECT 3', 'SELECT 2']);
  });

  it('answers with the new columns after a schema change', () => {
    const cached = cachingStatements(counting(), 10);
    expect(cached.prepare('SELECT * FROM items WHERE id = ?').all([1])).toEqual([{ id: 1, name: 'a' }]);
    cached.prepare("ALTER TABLE items ADD COLUMN colour TEXT DEFAULT 'red'").run([]);
    expect(cached.prepare('SELECT * FROM items WHERE id = ?').all([1])).toEqual([{ id: 1, name: 'a', colour: 'red' }]);
  });

  it('gives a fresh statement while the cached one is still being iterated', () => {
    const cached = cachingStatements(counting(), 10);
    const sql = 'SELECT name FROM items ORDER BY id';
    const names: string[] = [];
    for (const row of cached.prepare(sql).iterate([]) as Iterable<{ name: string }>) {
      names.push(row.name, ...(cached.prepare(sql).all([]) as { name: string }[]).map((inner) => inner.name));
      break;
    }
    expect(names).toEqual(['a', 'a', 'b', 'c']);
  });

  it('closes the database', () => {
    cachingStatements(counting(), 10).close();
    expect(database.open).toBe(false);
  });
});
