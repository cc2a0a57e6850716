import { describe, expect, it } from 'vitest';
import { NOW, hashOf, onDisk, onServer, plan, synced } from './testing/world.ts';

const COPY = (stem: string, ext = '.txt') => `${stem} (conflicted copy laptop 2026-12-06 153012)${ext}`;
const types = (actions: { type: string }[]) => actions.map((action) => action.type);

describe('the decision table: files', () => {
  it('unchanged on both sides: nothing', () => {
    const world = synced({ docs: null, 'docs/a.txt': 'a' });
    expect(plan(world)).toEqual({ actions: [], issues: [] });
  });

  it('changed locally only: upload over the same server file', () => {
    const world = synced({ 'a.txt': 'a' });
    onDisk.edit(world, 'a.txt', 'a2');
    expect(plan(world).actions).toEqual([{ type: 'upload', path: 'a.txt', size: 2, hash: hashOf('a2'), remoteId: 'r:a.txt' }]);
  });

  it("changed locally only, in a viewer's share: kept and reported, neither uploaded nor overwritten", () => {
    const world = synced({ shared: null, 'shared/a.txt': 'a' });
    onServer.share(world, 'shared', 'viewer');
    onDisk.edit(world, 'shared/a.txt', 'mine');
    const { actions, issues } = plan(world);
    expect(actions).toEqual([{ type: 'readOnly', path: 'shared/a.txt', reason: expect.any(String) }]);
    expect(issues).toEqual([expect.objectContaining({ path: 'shared/a.txt', kind: 'read-only' })]);
  });

  it('changed remotely only: download', () => {
    const world = synced({ 'a.txt': 'a' });
    onServer.edit(world, 'a.txt', 'a22');
    expect(plan(world).actions).toEqual([{ type: 'download', path: 'a.txt', remoteId: 'r:a.txt', size: 3, hash: hashOf('a22') }]);
  });

  it('changed on both sides to the same content: agree, no conflict', () => {
    const world = synced({ 'a.txt': 'a' });
    onDisk.edit(world, 'a.txt', 'same');
    onServer.edit(world, 'a.txt', 'same');
    const { actions, issues } = plan(world);
    expect(actions).toEqual([
      { type: 'agree', entry: expect.objectContaining({ path: 'a.txt', remoteId: 'r:a.txt', hash: hashOf('same'), mtimeMs: 1001 }) },
    ]);
    expect(issues).toEqual([]);
  });

  it("changed on both sides differently: conflict, the server keeps the name, this device's content goes to the copy", () => {
    const world = synced({ 'notes.txt': 'a' });
    onDisk.edit(world, 'notes.txt', 'mine');
    onServer.edit(world, 'notes.txt', 'theirs');
    const { actions, issues } = plan(world);
    expect(actions).toEqual([
      {
        type: 'conflict',
        path: 'notes.txt',
        copyPath: COPY('notes'),
        remoteId: 'r:notes.txt',
        size: 6,
        hash: hashOf('theirs'),
        copySize: 4,
        copyHash: hashOf('mine'),
      },
    ]);
    expect(issues).toEqual([
      { path: 'notes.txt', kind: 'conflict', message: expect.stringContaining(COPY('notes')), at: NOW.toISOString() },
    ]);
  });

  it('new locally: upload as a new file', () => {
    const world = synced({});
    onDisk.add(world, 'new.txt', 'new');
    expect(plan(world).actions).toEqual([{ type: 'upload', path: 'new.txt', size: 3, hash: hashOf('new') }]);
  });

  it('new remotely: download', () => {
    const world = synced({});
    onServer.add(world, 'new.txt', 'new');
    expect(plan(world).actions).toEqual([{ type: 'download', path: 'new.txt', remoteId: 'n:new.txt', size: 3, hash: hashOf('new') }]);
  });

  it('new on both sides with the same content: agree', () => {
    const world = synced({});
    onDisk.add(world, 'new.txt', 'same');
    onServer.add(world, 'new.txt', 'same');
    expect(plan(world).actions).toEqual([
      { type: 'agree', entry: expect.objectContaining({ path: 'new.txt', remoteId: 'n:new.txt', inode: 'n:new.txt' }) },
    ]);
  });

  it('new on both sides with different content: conflict', () => {
    const world = synced({});
    onDisk.add(world, 'new', 'mine');
    onServer.add(world, 'new', 'theirs');
    expect(plan(world).actions).toEqual([
      expect.objectContaining({ type: 'conflict', path: 'new', copyPath: COPY('new', ''), copyHash: hashOf('mine') }),
    ]);
  });

  it('deleted locally, unchanged remotely: deleteRemote', () => {
    const world = synced({ 'a.txt': 'a' });
    onDisk.remove(world, 'a.txt');
    expect(plan(world).actions).toEqual([{ type: 'deleteRemote', path: 'a.txt', kind: 'file', remoteId: 'r:a.txt' }]);
  });

  it('deleted locally, changed remotely: download (the change wins over the deletion)', () => {
    const world = synced({ 'a.txt': 'a' });
    onDisk.remove(world, 'a.txt');
    onServer.edit(world, 'a.txt', 'b');
    expect(types(plan(world).actions)).toEqual(['download']);
  });

  it('deleted remotely, unchanged locally: deleteLocal', () => {
    const world = synced({ 'a.txt': 'a' });
    onServer.remove(world, 'a.txt');
    expect(plan(world).actions).toEqual([{ type: 'deleteLocal', path: 'a.txt', kind: 'file' }]);
  });

  it('deleted remotely, changed locally: upload as new', () => {
    const world = synced({ 'a.txt': 'a' });
    onServer.remove(world, 'a.txt');
    onDisk.edit(world, 'a.txt', 'kept');
    expect(plan(world).actions).toEqual([{ type: 'upload', path: 'a.txt', size: 4, hash: hashOf('kept') }]);
  });

  it('deleted on both sides: forget', () => {
    const world = synced({ 'a.txt': 'a' });
    onServer.remove(world, 'a.txt');
    onDisk.remove(world, 'a.txt');
    expect(plan(world).actions).toEqual([{ type: 'forget', path: 'a.txt' }]);
  });

  it("moved on disk into a viewer's share: the server's place holds, the file goes back", () => {
    const world = synced({ shared: null, 'a.txt': 'a' });
    onServer.share(world, 'shared', 'viewer');
    onDisk.move(world, 'a.txt', 'shared/a.txt');
    expect(plan(world).actions).toEqual([{ type: 'moveLocal', from: 'shared/a.txt', to: 'a.txt', kind: 'file', remoteId: 'r:a.txt' }]);
  });

  it("deleted locally in a viewer's share: brought back", () => {
    const world = synced({ shared: null, 'shared/a.txt': 'a' });
    onServer.share(world, 'shared', 'viewer');
    onDisk.remove(world, 'shared/a.txt');
    const { actions, issues } = plan(world);
    expect(types(actions)).toEqual(['download']);
    expect(issues).toEqual([expect.objectContaining({ kind: 'read-only' })]);
  });
});

describe('the decision table: folders', () => {
  it('a new local folder: mkdirRemote, then its files', () => {
    const world = synced({});
    onDisk.add(world, 'f', null);
    onDisk.add(world, 'f/a.txt', 'a');
    expect(plan(world).actions).toEqual([{ type: 'mkdirRemote', path: 'f' }, expect.objectContaining({ type: 'upload', path: 'f/a.txt' })]);
  });

  it('a new remote folder: mkdirLocal, then its files', () => {
    const world = synced({});
    onServer.add(world, 'f', null);
    onServer.add(world, 'f/g', null);
    onServer.add(world, 'f/g/a.txt', 'a');
    expect(plan(world).actions).toEqual([
      { type: 'mkdirLocal', path: 'f', remoteId: 'n:f' },
      { type: 'mkdirLocal', path: 'f/g', remoteId: 'n:f/g' },
      expect.objectContaining({ type: 'download', path: 'f/g/a.txt' }),
    ]);
  });

  it('a new folder on both sides: agree', () => {
    const world = synced({});
    onDisk.add(world, 'f', null);
    onServer.add(world, 'f', null);
    expect(types(plan(world).actions)).toEqual(['agree']);
  });

  it('a folder deleted locally: one deleteRemote for its subtree', () => {
    const world = synced({ f: null, 'f/a.txt': 'a', 'f/g': null, 'f/g/b.txt': 'b' });
    onDisk.remove(world, 'f');
    expect(plan(world).actions).toEqual([{ type: 'deleteRemote', path: 'f', kind: 'folder', remoteId: 'r:f' }]);
  });

  it('a folder deleted remotely: one deleteLocal for its subtree', () => {
    const world = synced({ f: null, 'f/a.txt': 'a', 'f/g': null, 'f/g/b.txt': 'b' });
    onServer.remove(world, 'f');
    expect(plan(world).actions).toEqual([{ type: 'deleteLocal', path: 'f', kind: 'folder' }]);
  });

  it('a folder deleted locally while the server added under it: the folder and the new file come back, the rest is deleted', () => {
    const world = synced({ f: null, 'f/a.txt': 'a', 'f/g': null, 'f/g/b.txt': 'b' });
    onDisk.remove(world, 'f');
    onServer.add(world, 'f/new.txt', 'new');
    expect(plan(world).actions).toEqual([
      { type: 'mkdirLocal', path: 'f', remoteId: 'r:f' },
      expect.objectContaining({ type: 'download', path: 'f/new.txt' }),
      { type: 'deleteRemote', path: 'f/a.txt', kind: 'file', remoteId: 'r:f/a.txt' },
      { type: 'deleteRemote', path: 'f/g', kind: 'folder', remoteId: 'r:f/g' },
    ]);
  });

  it('a folder deleted remotely while a file under it changed locally: the folder is made again and the file goes up, the rest is deleted', () => {
    const world = synced({ f: null, 'f/a.txt': 'a', 'f/g': null, 'f/g/b.txt': 'b', 'f/h': null });
    onServer.remove(world, 'f');
    onDisk.edit(world, 'f/g/b.txt', 'changed');
    expect(plan(world).actions).toEqual([
      { type: 'mkdirRemote', path: 'f' },
      { type: 'mkdirRemote', path: 'f/g' },
      { type: 'upload', path: 'f/g/b.txt', size: 7, hash: hashOf('changed') },
      { type: 'deleteLocal', path: 'f/a.txt', kind: 'file' },
      { type: 'deleteLocal', path: 'f/h', kind: 'folder' },
    ]);
  });
});

describe('the decision table: moves', () => {
  it('a file moved on the server: moveLocal', () => {
    const world = synced({ 'a.txt': 'a', f: null });
    onServer.move(world, 'a.txt', 'f/b.txt');
    expect(plan(world).actions).toEqual([{ type: 'moveLocal', from: 'a.txt', to: 'f/b.txt', kind: 'file', remoteId: 'r:a.txt' }]);
  });

  it('a folder moved on the server: one moveLocal carries its subtree', () => {
    const world = synced({ f: null, 'f/a.txt': 'a', 'f/g': null, 'f/g/b.txt': 'b', h: null });
    onServer.move(world, 'f', 'h/f2');
    expect(plan(world).actions).toEqual([{ type: 'moveLocal', from: 'f', to: 'h/f2', kind: 'folder', remoteId: 'r:f' }]);
  });

  it('a file moved on disk (same inode): moveRemote', () => {
    const world = synced({ 'a.txt': 'a', f: null });
    onDisk.move(world, 'a.txt', 'f/a.txt');
    expect(plan(world).actions).toEqual([{ type: 'moveRemote', from: 'a.txt', to: 'f/a.txt', kind: 'file', remoteId: 'r:a.txt' }]);
  });

  it('a folder moved on disk: one moveRemote carries its subtree', () => {
    const world = synced({ f: null, 'f/a.txt': 'a', 'f/g': null, 'f/g/b.txt': 'b' });
    onDisk.move(world, 'f', 'renamed');
    expect(plan(world).actions).toEqual([{ type: 'moveRemote', from: 'f', to: 'renamed', kind: 'folder', remoteId: 'r:f' }]);
  });

  it('a file moved on disk with a new inode but the same size and content: moveRemote', () => {
    const world = synced({ 'a.txt': 'content' });
    onDisk.remove(world, 'a.txt');
    onDisk.add(world, 'b.txt', 'content');
    expect(plan(world).actions).toEqual([
      { type: 'moveRemote', from: 'a.txt', to: 'b.txt', kind: 'file', remoteId: 'r:a.txt' },
      // The journal learns the new inode, so the next scan does not read the file again.
      { type: 'agree', entry: expect.objectContaining({ path: 'b.txt', inode: 'n:b.txt' }) },
    ]);
  });

  it("a new file reusing a deleted file's inode is not a move", () => {
    const world = synced({ 'a.txt': 'a' });
    onDisk.remove(world, 'a.txt');
    onDisk.add(world, 'b.txt', 'other', 'i:a.txt');
    expect(types(plan(world).actions)).toEqual(['upload', 'deleteRemote']);
  });

  it("moved to different places on both sides: the server's place wins", () => {
    const world = synced({ 'a.txt': 'a', x: null, y: null });
    onDisk.move(world, 'a.txt', 'x/a.txt');
    onServer.move(world, 'a.txt', 'y/a.txt');
    expect(plan(world).actions).toEqual([{ type: 'moveLocal', from: 'x/a.txt', to: 'y/a.txt', kind: 'file', remoteId: 'r:a.txt' }]);
  });

  it('moved to the same place on both sides: agree on the new path', () => {
    const world = synced({ 'a.txt': 'a' });
    onDisk.move(world, 'a.txt', 'b.txt');
    onServer.move(world, 'a.txt', 'b.txt');
    expect(plan(world).actions).toEqual([{ type: 'agree', entry: expect.objectContaining({ path: 'b.txt', remoteId: 'r:a.txt' }) }]);
  });

  it('moved on the server and edited on disk: moveLocal, then upload at the new path', () => {
    const world = synced({ 'a.txt': 'a' });
    onServer.move(world, 'a.txt', 'b.txt');
    onDisk.edit(world, 'a.txt', 'edited');
    expect(plan(world).actions).toEqual([
      { type: 'moveLocal', from: 'a.txt', to: 'b.txt', kind: 'file', remoteId: 'r:a.txt' },
      { type: 'upload', path: 'b.txt', size: 6, hash: hashOf('edited'), remoteId: 'r:a.txt' },
    ]);
  });

  it('moved on disk and edited on the server: moveRemote, then download at the new path', () => {
    const world = synced({ 'a.txt': 'a' });
    onDisk.move(world, 'a.txt', 'b.txt');
    onServer.edit(world, 'a.txt', 'edited');
    expect(plan(world).actions).toEqual([
      { type: 'moveRemote', from: 'a.txt', to: 'b.txt', kind: 'file', remoteId: 'r:a.txt' },
      expect.objectContaining({ type: 'download', path: 'b.txt', remoteId: 'r:a.txt' }),
    ]);
  });

  it('a folder renamed on the server and a file in it renamed on disk: both hold', () => {
    const world = synced({ f: null, 'f/a.txt': 'a' });
    onServer.move(world, 'f', 'g');
    onDisk.move(world, 'f/a.txt', 'f/b.txt');
    expect(plan(world).actions).toEqual([
      { type: 'moveLocal', from: 'f', to: 'g', kind: 'folder', remoteId: 'r:f' },
      { type: 'moveRemote', from: 'g/a.txt', to: 'g/b.txt', kind: 'file', remoteId: 'r:f/a.txt' },
    ]);
  });

  it('a folder moved into a new folder: the new folder first, then the move, then what goes into the moved folder', () => {
    const world = synced({ f: null, 'f/a.txt': 'a' });
    onServer.add(world, 'new', null);
    onServer.move(world, 'f', 'new/f');
    onServer.add(world, 'new/f/b.txt', 'b');
    expect(types(plan(world).actions)).toEqual(['mkdirLocal', 'moveLocal', 'download']);
  });

  it('a case-only rename on disk: moveRemote', () => {
    const world = synced({ 'a.txt': 'a' });
    onDisk.move(world, 'a.txt', 'A.txt');
    expect(plan(world).actions).toEqual([{ type: 'moveRemote', from: 'a.txt', to: 'A.txt', kind: 'file', remoteId: 'r:a.txt' }]);
  });

  it('a case-only rename on the server, on a case-insensitive disk: moveLocal through a temporary name', () => {
    const world = synced({ 'a.txt': 'a' });
    onServer.move(world, 'a.txt', 'A.txt');
    expect(plan(world, { caseInsensitiveDisk: true }).actions).toEqual([
      { type: 'moveLocal', from: 'a.txt', to: 'A.txt', kind: 'file', remoteId: 'r:a.txt', throughTemporaryName: true },
    ]);
  });
});

describe('the decision table: kinds and names', () => {
  it('a file that became a folder on disk: the server file goes to Trash first, then the folder and its content go up', () => {
    const world = synced({ x: 'file' });
    onDisk.remove(world, 'x');
    onDisk.add(world, 'x', null);
    onDisk.add(world, 'x/a.txt', 'a');
    expect(plan(world).actions).toEqual([
      { type: 'deleteRemote', path: 'x', kind: 'file', remoteId: 'r:x' },
      { type: 'mkdirRemote', path: 'x' },
      expect.objectContaining({ type: 'upload', path: 'x/a.txt' }),
    ]);
  });

  it('a file that became a folder on disk while the server changed it: the server file steps aside to a conflicted copy, nothing lost', () => {
    const world = synced({ x: 'file' });
    onDisk.remove(world, 'x');
    onDisk.add(world, 'x', null);
    onServer.edit(world, 'x', 'changed');
    expect(plan(world).actions).toEqual([
      { type: 'moveRemote', from: 'x', to: COPY('x', ''), kind: 'file', remoteId: 'r:x' },
      { type: 'mkdirRemote', path: 'x' },
      expect.objectContaining({ type: 'download', path: COPY('x', ''), hash: hashOf('changed') }),
    ]);
  });

  it('a folder that became a file on the server: the local folder goes to the local trash first, then the file comes down', () => {
    const world = synced({ x: null, 'x/a.txt': 'a' });
    onServer.remove(world, 'x');
    onServer.add(world, 'x', 'file');
    expect(plan(world).actions).toEqual([
      { type: 'deleteLocal', path: 'x', kind: 'folder' },
      expect.objectContaining({ type: 'download', path: 'x' }),
    ]);
  });

  it('names equal but for case, new on each side: the server one steps aside, both kept', () => {
    const world = synced({});
    onDisk.add(world, 'Report.txt', 'mine');
    onServer.add(world, 'report.txt', 'theirs');
    const { actions, issues } = plan(world);
    expect(actions).toEqual([
      { type: 'moveRemote', from: 'report.txt', to: COPY('report'), kind: 'file', remoteId: 'n:report.txt' },
      expect.objectContaining({ type: 'upload', path: 'Report.txt' }),
      expect.objectContaining({ type: 'download', path: COPY('report') }),
    ]);
    expect(issues).toEqual([expect.objectContaining({ kind: 'conflict', path: COPY('report') })]);
  });
});

describe('the decision table: content already there', () => {
  it('a new local file whose content a server file has: copyRemote', () => {
    const world = synced({ 'a.txt': 'shared content' });
    onDisk.add(world, 'copy.txt', 'shared content');
    expect(plan(world).actions).toEqual([
      { type: 'copyRemote', path: 'copy.txt', fromRemoteId: 'r:a.txt', size: 14, hash: hashOf('shared content') },
    ]);
  });

  it('a new remote file whose content an unchanged local file has: copyLocal', () => {
    const world = synced({ 'a.txt': 'shared content' });
    onServer.add(world, 'copy.txt', 'shared content');
    expect(plan(world).actions).toEqual([
      { type: 'copyLocal', path: 'copy.txt', from: 'a.txt', remoteId: 'n:copy.txt', size: 14, hash: hashOf('shared content') },
    ]);
  });
});

describe('the decision table: order', () => {
  it('folders before their content, moves before transfers, conflicts before uploads, deletions last', () => {
    const world = synced({ old: 'o', 'c.txt': 'c', 'm.txt': 'm' });
    onDisk.remove(world, 'old');
    onDisk.add(world, 'z', null);
    onDisk.add(world, 'z/a.txt', 'a');
    onDisk.edit(world, 'c.txt', 'mine');
    onServer.edit(world, 'c.txt', 'theirs');
    onServer.move(world, 'm.txt', 'z/m.txt');
    onServer.edit(world, 'z/m.txt', 'm2');
    expect(types(plan(world).actions)).toEqual(['mkdirRemote', 'moveLocal', 'conflict', 'upload', 'download', 'deleteRemote']);
  });

  it('the same input always gives the same plan', () => {
    const world = synced({ a: null, 'a/1': '1', b: null, 'b/2': '2' });
    onDisk.move(world, 'a', 'c');
    onServer.add(world, 'b/3', '3');
    expect(plan(world)).toEqual(plan(world));
  });
});

describe('mass deletion', () => {
  const twenty = () => synced(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${String(i).padStart(2, '0')}`, `content ${i}`])));

  it('deleting more than half of the tree at once: no deletions, the engine is told to ask', () => {
    const world = twenty();
    for (let i = 0; i < 12; i += 1) onDisk.remove(world, `f${String(i).padStart(2, '0')}`);
    onDisk.add(world, 'new', 'n');
    const result = plan(world);
    expect(result.massDelete).toEqual({ count: 12, total: 20 });
    expect(types(result.actions)).toEqual(['upload']);
  });

  it('with allowMassDelete the deletions go ahead', () => {
    const world = twenty();
    for (let i = 0; i < 12; i += 1) onServer.remove(world, `f${String(i).padStart(2, '0')}`);
    const result = plan(world, { allowMassDelete: true });
    expect(result.massDelete).toBeUndefined();
    expect(types(result.actions)).toEqual(Array(12).fill('deleteLocal'));
  });

  it('a folder counts through its subtree', () => {
    const world = synced({ big: null, ...Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`big/${i}`, `${i}`])), keep: 'k' });
    onServer.remove(world, 'big');
    expect(plan(world).massDelete).toEqual({ count: 12, total: 13 });
  });

  it('ten deletions or fewer never ask, whatever the share', () => {
    const world = synced(Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`f${i}`, `${i}`])));
    for (let i = 0; i < 10; i += 1) onDisk.remove(world, `f${i}`);
    expect(plan(world).massDelete).toBeUndefined();
  });
});

describe('the decision table: places taken in turn', () => {
  it('renames in a chain (b to c, then a to b): the one that frees the place goes first', () => {
    const world = synced({ a: 'A', b: 'B' });
    onDisk.move(world, 'b', 'c');
    onDisk.move(world, 'a', 'b');
    expect(plan(world).actions).toEqual([
      { type: 'moveRemote', from: 'b', to: 'c', kind: 'file', remoteId: 'r:b' },
      { type: 'moveRemote', from: 'a', to: 'b', kind: 'file', remoteId: 'r:a' },
    ]);
  });

  it('two names swapped on the server: one steps aside to a temporary name', () => {
    const world = synced({ a: 'A', b: 'B' });
    onServer.move(world, 'a', 't');
    onServer.move(world, 'b', 'a');
    onServer.move(world, 't', 'b');
    expect(plan(world).actions).toEqual([
      { type: 'moveLocal', from: 'a', to: 'a (moving 1)', kind: 'file', remoteId: 'r:a' },
      { type: 'moveLocal', from: 'b', to: 'a', kind: 'file', remoteId: 'r:b' },
      { type: 'moveLocal', from: 'a (moving 1)', to: 'b', kind: 'file', remoteId: 'r:a' },
    ]);
  });
});

describe('the journal: one row per server item', () => {
  /** Rows at `paths` that name the server file of `of` (what an old journal kept after a download to a new place). */
  const staleRows = (world: ReturnType<typeof synced>, of: string, paths: string[]) => {
    const row = world.base.get(of)!;
    for (const path of paths) world.base.set(path, { ...row, path, inode: `i:${path}` });
  };

  it('several rows for one server file (seed 2): the one at its server path holds it, the rest are forgotten, no moves', () => {
    const world = synced({ docs: null, 'docs/a.txt': 'same' });
    staleRows(world, 'docs/a.txt', ['docs/b.txt', 'docs/c.txt']);
    const { actions } = plan(world);
    expect(actions).toEqual([
      { type: 'forget', path: 'docs/b.txt' },
      { type: 'forget', path: 'docs/c.txt' },
    ]);
  });

  it('the stale rows still on disk, beside new copies of the same content: each goes up as a copy, none moves, and once recorded nothing is left', () => {
    const world = synced({ docs: null, 'docs/a.txt': 'same' });
    staleRows(world, 'docs/a.txt', ['docs/b.txt', 'docs/c.txt']);
    world.local.set('docs/b.txt', { ...world.local.get('docs/a.txt')!, path: 'docs/b.txt', inode: 'i:docs/b.txt' });
    world.local.set('docs/d.txt', { ...world.local.get('docs/a.txt')!, path: 'docs/d.txt', inode: 'i:new-d' });
    const { actions } = plan(world);
    expect(actions).toEqual([
      { type: 'copyRemote', path: 'docs/b.txt', fromRemoteId: 'r:docs/a.txt', size: 4, hash: hashOf('same') },
      { type: 'copyRemote', path: 'docs/d.txt', fromRemoteId: 'r:docs/a.txt', size: 4, hash: hashOf('same') },
      { type: 'forget', path: 'docs/c.txt' },
    ]);
    // The journal after these steps (the engine writes each copy's row at its path): the next pass has nothing to do.
    world.base.delete('docs/c.txt');
    for (const path of ['docs/b.txt', 'docs/d.txt']) {
      const local = world.local.get(path)!;
      world.base.set(path, { ...world.base.get('docs/a.txt')!, path, remoteId: `copy:${path}`, inode: local.inode });
      world.remote.set(path, { ...world.remote.get('docs/a.txt')!, path, id: `copy:${path}` });
    }
    expect(plan(world)).toEqual({ actions: [], issues: [] });
  });

  it('no row keeps a server file it does not hold: the row at the server path wins even when it sorts last', () => {
    const world = synced({ 'z.txt': 'same' });
    staleRows(world, 'z.txt', ['a.txt']);
    world.local.set('a.txt', { ...world.local.get('z.txt')!, path: 'a.txt', inode: 'i:a.txt' });
    expect(types(plan(world).actions)).toEqual(['copyRemote']);
  });
});
