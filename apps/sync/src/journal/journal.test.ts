import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createJournal } from './journal.ts';
import { openPairDatabase } from './open-database.ts';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function openJournal() {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cv-journal-'));
  const file = path.join(dir, 'pairs', 'p.sqlite');
  return { file, db: openPairDatabase(file) };
}

const file = (p: string, remoteId: string) => ({ path: p, kind: 'file' as const, remoteId, size: 3, hash: 'ab', mtimeMs: 1, inode: '1:2' });

describe('journal', () => {
  it('reads the rows of one folder, none of those under it or beside it', async () => {
    const { db } = await openJournal();
    const journal = createJournal(db);
    const paths = ['a.txt', 'Ärger', 'Ärger/ß.txt', 'Ärger/tief/x.txt', 'Ärger2/y.txt', 'b/Ärger/z.txt'];
    for (const [index, p] of paths.entries()) journal.agree(file(p, `r${index}`));
    expect(journal.baseCount()).toBe(paths.length);
    expect([...journal.baseIn('').keys()].sort()).toEqual(['a.txt', 'Ärger']);
    expect([...journal.baseIn('Ärger').keys()]).toEqual(['Ärger/ß.txt']);
    expect([...journal.baseIn('Ärger/tief').keys()]).toEqual(['Ärger/tief/x.txt']);
    expect(journal.baseIn('Ärger/ß.txt').size).toBe(0);
  });

  it('keeps what was agreed across a reopen', async () => {
    const { file: dbFile, db } = await openJournal();
    createJournal(db).agree(file('a.txt', 'r1'));
    db.close();
    const again = createJournal(openPairDatabase(dbFile));
    expect(again.loadBase().get('a.txt')).toEqual(file('a.txt', 'r1'));
  });

  it('forgets the settled mark at any change of the base', async () => {
    const { db } = await openJournal();
    const journal = createJournal(db);
    journal.agree(file('a.txt', 'r1'));
    const changes: Array<() => void> = [
      () => journal.agree(file('b.txt', 'r2')),
      () => journal.move('r2', 'c.txt'),
      () => journal.forget('c.txt'),
    ];
    for (const change of changes) {
      journal.markSettled('/ 42');
      expect(journal.settledAt()).toBe('/ 42');
      change();
      expect(journal.settledAt()).toBeUndefined();
    }
  });

  it('moves a folder with what is under it, and only that', async () => {
    const { db } = await openJournal();
    const journal = createJournal(db);
    journal.agree({ ...file('A', 'f'), kind: 'folder', size: 0 });
    journal.agree(file('A/x', 'r1'));
    journal.agree(file('A_b/y', 'r2'));
    journal.move('f', 'B');
    expect([...journal.loadBase().keys()].sort()).toEqual(['A_b/y', 'B', 'B/x']);
    journal.forget('B');
    expect([...journal.loadBase().keys()]).toEqual(['A_b/y']);
  });

  it('moves an item found by its id, wherever the move started from', async () => {
    const { db } = await openJournal();
    const journal = createJournal(db);
    journal.agree(file('A/f.txt', 'r1'));
    // Moved to f.txt on disk and to B/f.txt on the server: the disk's copy goes to B/f.txt.
    journal.move('r1', 'B/f.txt');
    expect([...journal.loadBase().keys()]).toEqual(['B/f.txt']);
  });

  it('keeps one issue per path and kind, until resolved', async () => {
    const { db } = await openJournal();
    const journal = createJournal(db);
    journal.report({ path: 'a', kind: 'conflict', message: 'one', at: 't1' });
    journal.report({ path: 'a', kind: 'conflict', message: 'two', at: 't2' });
    expect(journal.issues()).toEqual([{ path: 'a', kind: 'conflict', message: 'two', at: 't2' }]);
    journal.resolve('a');
    expect(journal.issues()).toEqual([]);
  });

  it('refuses a journal written by a newer client', async () => {
    const { db } = await openJournal();
    db.pragma('user_version = 99');
    expect(() => createJournal(db)).toThrow(/newer cloudvault/);
  });
});
