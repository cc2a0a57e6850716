import { describe, expect, it } from 'vitest';
import type { SyncPath } from '../model.ts';
import { isAtOrUnder, joinPath, nameOf, parentOf, pathKey } from './paths.ts';
import { planEveryItem } from './plan-pass.ts';
import { simulate } from './testing/simulator.ts';
import { allSidesAsBase } from './unchanged.ts';
import { type World, NOW, onDisk, onServer, plan, synced } from './testing/world.ts';

/** A small seeded generator (mulberry32): a failure names its seed and replays exactly. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  return { next, pick };
}

// Few names and contents, so that paths, names differing only in case and equal contents meet often.
const NAMES = ['a', 'b', 'B', 'c.txt', 'd'];
const CONTENTS = ['x', 'y', 'z', 'w'];

type Random = ReturnType<typeof generator>;
type Side = { paths: () => SyncPath[]; kindAt: (path: SyncPath) => 'file' | 'folder' | undefined };

function randomTree(random: Random): Record<SyncPath, string | null> {
  const tree: Record<SyncPath, string | null> = {};
  const folders = [''];
  for (let i = 0; i < 2 + Math.floor(random.next() * 8); i += 1) {
    const parent = random.pick(folders);
    const name = random.pick(NAMES);
    const path = joinPath(parent, name);
    if (Object.keys(tree).some((other) => pathKey(other) === pathKey(path))) continue;
    const folder = random.next() < 0.35;
    tree[path] = folder ? null : random.pick(CONTENTS);
    if (folder) folders.push(path);
  }
  return tree;
}

/** A free place for a new or moved item on one side: in an existing folder, no sibling with the same key. */
function freePlace(random: Random, side: Side, avoidUnder?: SyncPath): SyncPath | undefined {
  const folders = ['', ...side.paths().filter((path) => side.kindAt(path) === 'folder')].filter(
    (folder) => avoidUnder === undefined || !isAtOrUnder(folder, avoidUnder),
  );
  const path = joinPath(random.pick(folders), random.pick(NAMES));
  return side.paths().some((other) => pathKey(other) === pathKey(path)) ? undefined : path;
}

/** One random change on one side: edit, add a file or folder, delete, move or rename, or a file becoming a folder. */
function randomChange(random: Random, world: World, which: 'disk' | 'server'): void {
  const snapshot = which === 'disk' ? world.local : world.remote;
  const side: Side = { paths: () => [...snapshot.keys()], kindAt: (path) => snapshot.get(path)?.kind };
  const ops = which === 'disk' ? onDisk : onServer;
  const existing = side.paths();
  const target = existing.length > 0 ? random.pick(existing) : undefined;
  const roll = random.next();
  if (roll < 0.25 && target && side.kindAt(target) === 'file') ops.edit(world, target, random.pick(CONTENTS) + random.pick(CONTENTS));
  else if (roll < 0.45) {
    const path = freePlace(random, side);
    if (path) ops.add(world, path, random.next() < 0.7 ? random.pick(CONTENTS) : null);
  } else if (roll < 0.6 && target) ops.remove(world, target);
  else if (roll < 0.9 && target) {
    const to = freePlace(random, side, target);
    // A case-only rename now and then: the same folder, the name in another case.
    const caseOnly = joinPath(parentOf(target), nameOf(target) === 'b' ? 'B' : 'b');
    const destination = random.next() < 0.15 && pathKey(caseOnly) === pathKey(target) && caseOnly !== target ? caseOnly : to;
    if (destination) ops.move(world, target, destination);
  } else if (target && side.kindAt(target) === 'file') {
    ops.remove(world, target);
    ops.add(world, target, null);
  }
}

const filesOf = (side: Map<SyncPath, { kind: string; hash?: string }>) =>
  Object.fromEntries([...side].map(([path, node]) => [path, node.kind === 'folder' ? 'folder' : node.hash]));

describe('planPass on random worlds', () => {
  it('never loses content, and leaves both sides holding the same tree', () => {
    for (let seed = Number(process.env.SEED_FROM ?? 1); seed <= Number(process.env.SEED_TO ?? 3000); seed += 1) {
      const random = generator(seed);
      const world = synced(randomTree(random));
      // Now and then a folder is another user's, shared with this device to view only.
      const folders = [...world.base.values()].filter((entry) => entry.kind === 'folder');
      const viewed = random.next() < 0.3 && folders.length > 0 ? random.pick(folders).remoteId : undefined;
      const changes = 1 + Math.floor(random.next() * 6);
      for (let i = 0; i < changes; i += 1) randomChange(random, world, random.next() < 0.5 ? 'disk' : 'server');
      const share = [...world.remote.values()].find((entry) => entry.id === viewed);
      if (share) onServer.share(world, share.path, 'viewer');

      const before = [...world.local.values(), ...world.remote.values()].flatMap((entry) => (entry.hash ? [entry.hash] : []));
      const agreed = [...world.base.values()].flatMap((entry) => (entry.hash ? [entry.hash] : []));
      // Every other world is on a disk that compares names as the server does (macOS, Windows).
      const caseInsensitiveDisk = seed % 2 === 0;
      const { actions, issues } = plan(world, { allowMassDelete: true, caseInsensitiveDisk });
      const context = `seed ${seed}${caseInsensitiveDisk ? ' (case-insensitive disk)' : ''}\n${JSON.stringify({ base: filesOf(new Map(world.base)), local: filesOf(new Map(world.local)), remote: filesOf(new Map(world.remote)), viewed: share?.path, actions, issues }, null, 1)}`;

      let outcome;
      try {
        outcome = simulate(world, actions, { caseInsensitiveDisk });
      } catch (error) {
        throw new Error(`${context}\n${(error as Error).message}`);
      }
      // The server keeps what it held (versions, Trash): what the base agreed on is never lost there.
      const after = new Set([...outcome.local.values(), ...outcome.remote.values()].flatMap((node) => (node.hash ? [node.hash] : [])));
      const lost = before.filter((hash) => !after.has(hash) && !outcome.kept.has(hash) && !agreed.includes(hash));
      expect(lost, context).toEqual([]);
      // What a viewer changed stays on this device only (readOnly), and what waits for a name
      // in a viewer's share stays where it is: the rest is alike.
      const kept = [
        ...actions.flatMap((action) => (action.type === 'readOnly' ? [action.path] : [])),
        ...issues.flatMap((issue) => (issue.kind === 'name' ? [issue.path] : [])),
      ];
      const shown = (side: Map<SyncPath, { kind: string; hash?: string }>) =>
        new Map([...side].filter(([path]) => !kept.some((readOnly) => isAtOrUnder(path, readOnly))));
      expect(filesOf(shown(outcome.local)), context).toEqual(filesOf(shown(outcome.remote)));
    }
  });

  it('takes the shortcut for an unchanged tree only where planning every item finds nothing to do', () => {
    let shortcuts = 0;
    for (let seed = 1; seed <= 3000; seed += 1) {
      const random = generator(seed);
      const world = synced(randomTree(random));
      const folders = [...world.remote.values()].filter((entry) => entry.kind === 'folder');
      if (random.next() < 0.3 && folders.length > 0) onServer.share(world, random.pick(folders).path, 'viewer');
      // Half the worlds are changed a little: the shortcut must then see it, or the full plan be empty too.
      if (seed % 2 === 1) randomChange(random, world, random.next() < 0.5 ? 'disk' : 'server');
      if (!allSidesAsBase(world.base, world.local, world.remote)) continue;
      shortcuts += 1;
      const full = planEveryItem({ ...world, options: { deviceName: 'laptop', now: NOW, caseInsensitiveDisk: seed % 4 === 0 } });
      expect(full, `seed ${seed}`).toEqual({ actions: [], issues: [] });
    }
    expect(shortcuts).toBeGreaterThan(1000);
  });

  it('does not take the shortcut when two paths would be one on the server, or a file was touched', () => {
    const clashing = synced({ a: 'x', A: 'y' });
    expect(allSidesAsBase(clashing.base, clashing.local, clashing.remote)).toBe(false);
    const touched = synced({ a: 'x' });
    touched.local.set('a', { ...touched.local.get('a')!, mtimeMs: 5000 });
    expect(allSidesAsBase(touched.base, touched.local, touched.remote)).toBe(false);
    expect(plan(touched).actions.map((action) => action.type)).toEqual(['agree']);
  });
});
