import { describe, expect, it } from 'vitest';
import { followReplacedFiles } from './replaced-files.ts';
import { type World, hashOf, onDisk, onServer, plan, synced } from './testing/world.ts';

/** A file replaced on the server under a new id (a plan without versions), as the world's server does it. */
function replacedOnServer(world: World, path: string, content: string) {
  onServer.remove(world, path);
  onServer.add(world, path, content);
}

function planFollowing(world: World) {
  return plan({ ...world, base: followReplacedFiles(world.base, world.remote) });
}

describe('a file replaced on the server under a new id', () => {
  it('unchanged on disk: its new content comes down, nothing goes to the local trash', () => {
    const world = synced({ 'f.txt': 'hello' });
    replacedOnServer(world, 'f.txt', 'hello2');
    const newId = world.remote.get('f.txt')!.id;
    expect(planFollowing(world).actions).toEqual([{ type: 'download', path: 'f.txt', remoteId: newId, size: 6, hash: hashOf('hello2') }]);
  });

  it("edited on disk too: a conflict, where the server's content keeps the name and this device's goes to the copy", () => {
    const world = synced({ 'f.txt': 'hello' });
    replacedOnServer(world, 'f.txt', 'theirs');
    onDisk.edit(world, 'f.txt', 'mine');
    const [action] = planFollowing(world).actions;
    expect(action).toMatchObject({ type: 'conflict', path: 'f.txt', hash: hashOf('theirs'), copyHash: hashOf('mine') });
  });

  it('is left alone when the id still exists elsewhere (a move), or the file at the path is one the journal knows', () => {
    const moved = synced({ 'a.txt': 'a', 'b.txt': 'b' });
    onServer.move(moved, 'a.txt', 'c.txt');
    expect(followReplacedFiles(moved.base, moved.remote)).toBe(moved.base);
    const swapped = synced({ 'a.txt': 'a', 'b.txt': 'b' });
    onServer.remove(swapped, 'a.txt');
    onServer.move(swapped, 'b.txt', 'a.txt');
    expect(followReplacedFiles(swapped.base, swapped.remote)).toBe(swapped.base);
  });
});
