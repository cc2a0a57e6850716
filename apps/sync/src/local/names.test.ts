import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openLocalNames } from './names.ts';

let dir: string;
afterEach(() => rm(dir, { recursive: true, force: true }));

async function setUp() {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cv-names-'));
  return { root: path.join(dir, 'root'), dbFile: path.join(dir, 'pair.sqlite') };
}

describe('local names', () => {
  it('passes names the disk holds through, composing Unicode forms on the way to the server', async () => {
    const { root } = await setUp();
    const names = openLocalNames(root, new Database(':memory:'), 'linux');
    expect(names.localPathFor('Photos/2026/beach.jpg')).toBe('Photos/2026/beach.jpg');
    expect(names.syncPathFor('Cafe\u0301/menu.txt')).toBe('Café/menu.txt');
    expect(names.localPathFor('')).toBe('');
  });

  it('gives a server name too long for the disk a marked local name, kept across a restart', async () => {
    const { root, dbFile } = await setUp();
    const long = `${'é'.repeat(200)}.txt`;
    const names = openLocalNames(root, new Database(dbFile), 'linux');
    const local = names.localPathFor(`Docs/${long}`);
    expect(local).toMatch(/^Docs\/é+ \(renamed on this disk\)\.txt$/);
    expect(Buffer.byteLength(path.posix.basename(local))).toBeLessThanOrEqual(255);

    const again = openLocalNames(root, new Database(dbFile), 'linux');
    expect(again.localPathFor(`Docs/${long}`)).toBe(local);
    expect(again.syncPathFor(local)).toBe(`Docs/${long}`);
    expect(again.mappedSyncName('Docs', path.posix.basename(local))).toBe(long);
  });

  it('does not give two unholdable names the same local name, nor one a file already has', async () => {
    const { root } = await setUp();
    await mkdir(root, { recursive: true });
    await writeFile(path.join(root, 'CON (renamed on this disk).txt'), 'a person made this');
    const names = openLocalNames(root, new Database(':memory:'), 'win32');
    expect(names.localPathFor('CON.txt')).toBe('CON (renamed on this disk 2).txt');
    expect(names.localPathFor('a:b')).toBe('a_b (renamed on this disk)');
    expect(names.localPathFor('a?b')).toBe('a_b (renamed on this disk 2)');
    expect(names.localPathFor('a:b/inner?.txt')).toBe('a_b (renamed on this disk)/inner_ (renamed on this disk).txt');
  });

  it('moves the names under a moved folder and forgets a removed one', async () => {
    const { root } = await setUp();
    const names = openLocalNames(root, new Database(':memory:'), 'win32');
    const inner = names.localPathFor('A/x|y.txt');
    names.moved('A', 'B');
    expect(names.localPathFor('B/x|y.txt')).toBe(`B/${path.posix.basename(inner)}`);
    expect(names.syncPathFor(`B/${path.posix.basename(inner)}`)).toBe('B/x|y.txt');
    names.forget('B');
    expect(names.syncPathFor(`B/${path.posix.basename(inner)}`)).toBe(`B/${path.posix.basename(inner)}`);
  });

  it('finds a decomposed local name the scan saw from its composed sync path', async () => {
    const { root } = await setUp();
    const names = openLocalNames(root, new Database(':memory:'), 'darwin');
    names.observe(new Map([['Café', 'Cafe\u0301']]));
    expect(names.localPathFor('Café/menu.txt')).toBe('Cafe\u0301/menu.txt');
    expect(names.syncPathFor('Cafe\u0301/menu.txt')).toBe('Café/menu.txt');
  });
});
