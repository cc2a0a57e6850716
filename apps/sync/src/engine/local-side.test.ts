import { mkdir, mkdtemp, rename, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openLocalNames } from '../local/names.ts';
import type { BaseEntry, SyncPath } from '../model.ts';
import { createLocalSide } from './local-side.ts';

let root: string;
afterEach(() => rm(root, { recursive: true, force: true }));

/** A folder with two files in a subfolder, the disk side over it, and the journal's base as a full scan agrees it. */
async function agreedTree() {
  root = await mkdtemp(path.join(os.tmpdir(), 'cv-local-side-'));
  await mkdir(path.join(root, 'Docs'));
  await writeFile(path.join(root, 'Docs', 'a.txt'), 'a');
  await writeFile(path.join(root, 'Docs', 'b.txt'), 'b');
  // Old enough to have settled.
  const past = new Date(Date.now() - 60_000);
  for (const file of ['a.txt', 'b.txt']) await utimes(path.join(root, 'Docs', file), past, past);
  const side = createLocalSide(
    { root, names: openLocalNames(root, new Database(':memory:'), 'linux'), caseInsensitive: false },
    { dryRun: false, now: () => new Date() },
  );
  const scan = await side.scan(new Map());
  const base = new Map<SyncPath, BaseEntry>(
    [...scan.entries.values()].map((entry) => [entry.path, { ...entry, remoteId: `id of ${entry.path}` }]),
  );
  const folderOf = (syncPath: SyncPath) => syncPath.slice(0, Math.max(0, syncPath.lastIndexOf('/')));
  const agreed = () => ({
    in: (folder: SyncPath) => new Map([...base].filter(([syncPath]) => folderOf(syncPath) === folder)),
    count: base.size,
  });
  return { side, base, agreed };
}

describe('matchesJournal: the walk over a tree as the journal left it', () => {
  it('answers true for the tree as agreed', async () => {
    const { side, base, agreed } = await agreedTree();
    expect([...base.keys()].sort()).toEqual(['Docs', 'Docs/a.txt', 'Docs/b.txt']);
    expect(await side.matchesJournal(agreed())).toBe(true);
  });

  it.each([
    ['a file edited', () => writeFile(path.join(root, 'Docs', 'a.txt'), 'a, edited')],
    ['a file added', () => writeFile(path.join(root, 'new.txt'), 'new')],
    ['a file deleted', () => rm(path.join(root, 'Docs', 'b.txt'))],
    ['a folder renamed', () => rename(path.join(root, 'Docs'), path.join(root, 'Papers'))],
    ['a symbolic link added (reported by a full scan)', () => symlink('Docs/a.txt', path.join(root, 'link'))],
  ])('answers false for %s', async (_change, change) => {
    const { side, agreed } = await agreedTree();
    await change();
    expect(await side.matchesJournal(agreed())).toBe(false);
  });
});
