import { describe, expect, it } from 'vitest';
import type { BaseEntry, LocalEntry, RemoteEntry } from '../model.ts';
import { matchItems } from './match.ts';

const snapshot = <T extends { path: string }>(...entries: T[]) => new Map(entries.map((entry) => [entry.path, entry]));
const baseFile = (path: string, remoteId: string, inode: string): BaseEntry => ({
  path,
  kind: 'file',
  remoteId,
  size: 5,
  hash: `hash of ${path}`,
  mtimeMs: 1_000,
  inode,
});
const remoteFile = (path: string, id: string): RemoteEntry => ({ path, kind: 'file', id, size: 5, hash: `hash of ${path}`, role: 'owner' });

describe('matchItems: the disk by inode', () => {
  it('follows a file renamed on disk to its new path', () => {
    const local: LocalEntry = { path: 'b.txt', kind: 'file', size: 5, mtimeMs: 1_000, inode: '1:7' };
    const items = matchItems(snapshot(baseFile('a.txt', 'r1', '1:7')), snapshot(local), snapshot(remoteFile('a.txt', 'r1')));
    expect(items).toEqual([{ base: baseFile('a.txt', 'r1', '1:7'), local, remote: remoteFile('a.txt', 'r1') }]);
  });

  // Seed 1320245524: a row left by a cut pass held the inode the disk had since given to
  // another row's file; matched first (by path order), it pulled that file to itself, and
  // each pass trashed the file on the server and sent it again.
  it('gives a file whose inode two rows hold to the row at its path, never to the other', () => {
    const stale = baseFile('misc/letter.md', 'r1', '1:7');
    const owner = baseFile('misc/summary', 'r2', '1:7');
    const local: LocalEntry = { path: 'misc/summary', kind: 'file', size: 5, mtimeMs: 1_000, inode: '1:7' };
    const items = matchItems(
      snapshot(stale, owner),
      snapshot(local),
      snapshot(remoteFile('misc/letter.md', 'r1'), remoteFile('misc/summary', 'r2')),
    );
    expect(items.find((item) => item.base === owner)?.local).toBe(local);
    expect(items.find((item) => item.base === stale)?.local).toBeUndefined();
  });

  it('names no row for sure when two rows hold the inode and neither is at the disk path', () => {
    const local: LocalEntry = { path: 'moved.md', kind: 'file', size: 5, mtimeMs: 1_000, inode: '1:7' };
    const items = matchItems(
      snapshot(baseFile('a.md', 'r1', '1:7'), baseFile('b.md', 'r2', '1:7')),
      snapshot(local),
      snapshot(remoteFile('a.md', 'r1'), remoteFile('b.md', 'r2')),
    );
    expect(items.filter((item) => item.local === local)).toEqual([{ local }]);
  });
});
