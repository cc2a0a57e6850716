import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { trackChanges } from './change-stamp.ts';

let dir: string;
let ours: SqliteDatabase.Database;
let other: SqliteDatabase.Database;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-stamp-'));
  ours = new SqliteDatabase(path.join(dir, 'db.sqlite'));
  ours.pragma('journal_mode = WAL');
  ours.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT)');
  other = new SqliteDatabase(path.join(dir, 'db.sqlite'));
});
afterEach(async () => {
  other.close();
  if (ours.open) ours.close();
  await rm(dir, { recursive: true, force: true });
});

describe('trackChanges', () => {
  it('keeps the stamp through reads and changes it with a write on our connection', () => {
    const { database, stamp } = trackChanges(ours, ours);
    const before = stamp();
    database.prepare('SELECT * FROM items').all([]);
    expect(stamp()).toBe(before);
    database.prepare("INSERT INTO items (name) VALUES ('a')").run([]);
    expect(stamp()).not.toBe(before);
  });

  it('changes the stamp with a write that also answers rows (RETURNING)', () => {
    const { database, stamp } = trackChanges(ours, ours);
    const before = stamp();
    database.prepare("INSERT INTO items (name) VALUES ('r') RETURNING id").all([]);
    expect(stamp()).not.toBe(before);
    const between = stamp();
    database.prepare("UPDATE items SET name = 's' RETURNING id").all([]);
    expect(stamp()).not.toBe(between);
  });

  it('changes the stamp when another connection commits a change', () => {
    const { stamp } = trackChanges(ours, ours);
    const before = stamp();
    expect(stamp()).toBe(before);
    other.prepare("INSERT INTO items (name) VALUES ('b')").run();
    expect(stamp()).not.toBe(before);
  });
});
