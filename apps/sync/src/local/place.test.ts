import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { link, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { diskStats } from './disk-stats.ts';
import { openLocalNames } from './names.ts';
import { copyLocal, type LocalTree, makeConflictCopy, moveLocal, moveToLocalTrash, placeDownloaded } from './place.ts';
import { localStamp, tempPathFor } from './private-area.ts';

let root: string;
afterEach(() => rm(root, { recursive: true, force: true }));

async function setUp(platform: 'linux' | 'win32' = 'linux'): Promise<LocalTree> {
  root = await mkdtemp(path.join(os.tmpdir(), 'cv-place-'));
  return { root, names: openLocalNames(root, new Database(':memory:'), platform), caseInsensitive: false };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function download(tree: LocalTree, key: string, content: string) {
  const tmp = await tempPathFor(tree.root, key);
  await writeFile(tmp, content);
  return tmp;
}

async function expectedAt(absPath: string) {
  const stats = await diskStats(absPath);
  if (!stats || stats.kind === 'other') throw new Error(`nothing at ${absPath}`);
  return { ...stats, kind: stats.kind };
}

describe('placeDownloaded', () => {
  it('puts a checked download in place, making its folders, and answers the new entry', async () => {
    const tree = await setUp();
    const tmp = await download(tree, 'id1:hash', 'hello');
    expect(path.dirname(tmp)).toBe(path.join(root, '.cloudvault', 'tmp'));
    expect(await tempPathFor(root, 'id1:hash')).toBe(tmp);
    const result = await placeDownloaded(tree, tmp, 'Docs/Deep/hello.txt', { expectedHash: sha256('hello'), expected: undefined });
    expect(result).toMatchObject({
      status: 'placed',
      entry: { path: 'Docs/Deep/hello.txt', kind: 'file', size: 5, hash: sha256('hello') },
    });
    expect(await readFile(path.join(root, 'Docs/Deep/hello.txt'), 'utf8')).toBe('hello');
    expect(existsSync(tmp)).toBe(false);
  });

  it('refuses bytes that are not the expected ones and drops them', async () => {
    const tree = await setUp();
    const tmp = await download(tree, 'k', 'corrupt');
    const result = await placeDownloaded(tree, tmp, 'a.txt', { expectedHash: sha256('hello'), expected: undefined });
    expect(result).toEqual({ status: 'hash-mismatch', actual: sha256('corrupt') });
    expect(existsSync(tmp)).toBe(false);
    expect(existsSync(path.join(root, 'a.txt'))).toBe(false);
  });

  it('replaces only the file the journal knew; a file changed or added since is left and reported', async () => {
    const tree = await setUp();
    await writeFile(path.join(root, 'a.txt'), 'old');
    const known = await expectedAt(path.join(root, 'a.txt'));
    const tmp = await download(tree, 'k', 'new');
    expect(await placeDownloaded(tree, tmp, 'a.txt', { expectedHash: sha256('new'), expected: undefined })).toEqual({ status: 'changed' });
    expect(existsSync(tmp)).toBe(true);

    await writeFile(path.join(root, 'a.txt'), 'edited locally, longer');
    expect(await placeDownloaded(tree, tmp, 'a.txt', { expectedHash: sha256('new'), expected: known })).toEqual({ status: 'changed' });
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('edited locally, longer');

    const now = await expectedAt(path.join(root, 'a.txt'));
    expect(
      await placeDownloaded(tree, tmp, 'a.txt', { expectedHash: sha256('new'), computedHash: sha256('new'), expected: now }),
    ).toMatchObject({ status: 'placed' });
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('new');
  });

  it('answers changed when a file stands where a folder of the path should be', async () => {
    const tree = await setUp();
    await writeFile(path.join(root, 'Docs'), 'a file');
    const tmp = await download(tree, 'k', 'x');
    expect(await placeDownloaded(tree, tmp, 'Docs/x.txt', { expectedHash: sha256('x'), expected: undefined })).toEqual({
      status: 'changed',
    });
  });

  it('writes a server name this disk cannot hold under its marked local name', async () => {
    const tree = await setUp('win32');
    const tmp = await download(tree, 'k', 'x');
    const result = await placeDownloaded(tree, tmp, 'a:b.txt', { expectedHash: sha256('x'), expected: undefined });
    expect(result).toMatchObject({ status: 'placed', entry: { path: 'a:b.txt' } });
    expect(existsSync(path.join(root, 'a_b (renamed on this disk).txt'))).toBe(true);
  });
});

describe('copyLocal', () => {
  it('copies content the disk holds to a new path, checking it is still what the planner saw', async () => {
    const tree = await setUp();
    await writeFile(path.join(root, 'a.txt'), 'same bytes');
    expect(await copyLocal(tree, 'a.txt', 'Copies/b.txt', { expectedHash: sha256('same bytes'), expected: undefined })).toMatchObject({
      status: 'placed',
      entry: { path: 'Copies/b.txt', hash: sha256('same bytes') },
    });
    expect(await readFile(path.join(root, 'Copies/b.txt'), 'utf8')).toBe('same bytes');

    await writeFile(path.join(root, 'a.txt'), 'edited since the scan');
    expect(await copyLocal(tree, 'a.txt', 'c.txt', { expectedHash: sha256('same bytes'), expected: undefined })).toMatchObject({
      status: 'hash-mismatch',
    });
    expect(existsSync(path.join(root, 'c.txt'))).toBe(false);
    expect(await copyLocal(tree, 'gone.txt', 'd.txt', { expectedHash: sha256('x'), expected: undefined })).toEqual({ status: 'missing' });
    expect(await readdir(path.join(root, '.cloudvault', 'tmp'))).toEqual([]);
  });
});

describe('moveLocal and makeConflictCopy', () => {
  it('moves a folder with its content, never over something already there', async () => {
    const tree = await setUp();
    await mkdir(path.join(root, 'A'));
    await writeFile(path.join(root, 'A/x.txt'), 'x');
    await writeFile(path.join(root, 'taken.txt'), 't');
    expect(await moveLocal(tree, 'A', 'B/C')).toMatchObject({ status: 'moved', entry: { path: 'B/C', kind: 'folder' } });
    expect(await readFile(path.join(root, 'B/C/x.txt'), 'utf8')).toBe('x');
    expect(await moveLocal(tree, 'B/C/x.txt', 'taken.txt')).toEqual({ status: 'taken' });
    expect(await moveLocal(tree, 'nothing', 'else')).toEqual({ status: 'missing' });
  });

  it('renames when only case changes', async () => {
    const tree = await setUp();
    await writeFile(path.join(root, 'readme.md'), 'r');
    expect(await moveLocal(tree, 'readme.md', 'README.md')).toMatchObject({ status: 'moved' });
    expect(existsSync(path.join(root, 'README.md'))).toBe(true);
  });

  it('on a case-insensitive disk goes through a detour when the destination is the item itself', async () => {
    const tree = { ...(await setUp()), caseInsensitive: true };
    await writeFile(path.join(root, 'readme.md'), 'r');
    // A second name for the same inode stands in for the case-insensitive disk's answer to lstat('README.md').
    await link(path.join(root, 'readme.md'), path.join(root, 'README.md'));
    expect(await moveLocal(tree, 'readme.md', 'README.md')).toMatchObject({ status: 'moved' });
    expect(existsSync(path.join(root, 'readme.md'))).toBe(false);
    expect(await readFile(path.join(root, 'README.md'), 'utf8')).toBe('r');
  });

  it("moves a conflict's local side to its copy name", async () => {
    const tree = await setUp();
    await writeFile(path.join(root, 'report.pdf'), 'mine');
    const copy = 'report (conflicted copy laptop 2026-12-06 153012).pdf';
    expect(await makeConflictCopy(tree, 'report.pdf', copy)).toMatchObject({ status: 'moved', entry: { path: copy } });
    expect(await readFile(path.join(root, copy), 'utf8')).toBe('mine');
    expect(existsSync(path.join(root, 'report.pdf'))).toBe(false);
  });
});

describe('moveToLocalTrash', () => {
  it('moves a deleted item into a dated folder of the local trash, keeping its path, and never over an earlier one', async () => {
    const tree = await setUp();
    const now = new Date(2026, 11, 6, 15, 30, 12);
    expect(localStamp(now)).toBe('2026-12-06 153012');
    for (const content of ['first', 'second']) {
      await mkdir(path.join(root, 'Docs'), { recursive: true });
      await writeFile(path.join(root, 'Docs/a.txt'), content);
      await moveToLocalTrash(tree, 'Docs/a.txt', now);
    }
    expect(await readFile(path.join(root, '.cloudvault/trash/2026-12-06 153012/Docs/a.txt'), 'utf8')).toBe('first');
    expect(await readFile(path.join(root, '.cloudvault/trash/2026-12-06 153012 (2)/Docs/a.txt'), 'utf8')).toBe('second');
    expect(existsSync(path.join(root, 'Docs/a.txt'))).toBe(false);
    expect(await moveToLocalTrash(tree, 'Docs/a.txt', now)).toBeNull();
  });
});
