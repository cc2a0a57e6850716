import type { SyncPath } from '../model.ts';
import type { Item } from './match.ts';
import { isAtOrUnder, joinPath, nameOf, parentOf, pathKey } from './paths.ts';
import { movedOn, roleOf, type Sides } from './sides.ts';

/** A cycle of placements: each side moved a folder into the other. */
class Cycle extends Error {}

/**
 * Where each item ends up once the pass is done, on both sides. The server's own move wins
 * the place; else the disk's; else the item stays in its base folder by its base name. A
 * parent's place carries its children, so a folder moved on one side and a child renamed on
 * the other both hold. `renames` give items another name in the same folder (conflicted
 * copies' names). Moves on disk that would put a folder inside itself once combined with the
 * server's moves are set aside (the server's side holds), and the places worked out again.
 */
export function computeTargets(items: Item[], sides: Sides, renames: Map<Item, string>): Map<Item, SyncPath> {
  const overruled = new Set<Item>();
  for (;;) {
    try {
      return placeAll(items, sides, renames, overruled);
    } catch (error) {
      if (!(error instanceof Cycle)) throw error;
    }
  }
}

function placeAll(items: Item[], sides: Sides, renames: Map<Item, string>, overruled: Set<Item>): Map<Item, SyncPath> {
  const targets = new Map<Item, SyncPath>();
  // The items being placed, innermost last, and whether each follows its move on disk.
  const placing: Array<{ item: Item; byDisk: boolean }> = [];

  const under = (index: Map<SyncPath, Item>, path: SyncPath): SyncPath => {
    const parentPath = parentOf(path);
    const parent = parentPath === '' ? undefined : index.get(parentPath);
    const open = parent ? placing.findIndex((entry) => entry.item === parent) : -1;
    if (open !== -1) {
      const byDisk = placing.slice(open).filter((entry) => entry.byDisk);
      // The server's tree and the base are trees: a cycle always runs through a move on disk.
      if (byDisk.length === 0) throw new Error('placing items: a cycle without a move on disk');
      for (const entry of byDisk) overruled.add(entry.item);
      throw new Cycle();
    }
    return joinPath(parent ? targetOf(parent) : parentPath, nameOf(path));
  };

  const place = (item: Item, entry: { byDisk: boolean }): SyncPath => {
    const { base, local, remote } = item;
    if (remote && (!base || movedOn('remote', item, sides))) return under(sides.byRemotePath, remote.path);
    // A viewer's move on disk cannot reach the server, nor a move into a folder one only
    // views: the server's place holds.
    const into = local && sides.byLocalPath.get(parentOf(local.path));
    const allowed = remote?.role !== 'viewer' && (!into || roleOf(into, sides) !== 'viewer');
    const diskWins = !base || (movedOn('local', item, sides) && allowed && !overruled.has(item));
    if (local && diskWins) {
      entry.byDisk = true;
      return under(sides.byLocalPath, local.path);
    }
    return under(sides.byBasePath, base!.path);
  };

  function targetOf(item: Item): SyncPath {
    const known = targets.get(item);
    if (known !== undefined) return known;
    const entry = { item, byDisk: false };
    placing.push(entry);
    const placed = place(item, entry);
    placing.pop();
    const renamed = renames.get(item);
    const target = renamed === undefined ? placed : joinPath(parentOf(placed), renamed);
    targets.set(item, target);
    return target;
  }

  for (const item of items) targetOf(item);
  return targets;
}

/** A way of telling a person what the planner did about names. */
export type ReportIssue = (issue: { path: SyncPath; kind: 'conflict' | 'name'; message: string }) => void;

/**
 * Order of precedence when two items would end at one path (the server compares names
 * NFC-lowercased): an item only on disk cannot be moved aside on the server, so it keeps the
 * path; then the item already at that path on the server; then the first by path.
 */
function precedence(target: SyncPath) {
  const rank = (item: Item) => (!item.remote ? 0 : item.remote.path === target ? 1 : 2);
  const path = (item: Item) => (item.remote ?? item.local ?? item.base)!.path;
  return (a: Item, b: Item) => rank(a) - rank(b) || (path(a) < path(b) ? -1 : path(a) > path(b) ? 1 : 0);
}

/**
 * The targets, once no two items that stay would end at one path: the one that gives way
 * takes a conflicted copy's name (through a server-side move: nothing is lost, both show).
 * An item only on disk that cannot give way is left out of the pass and reported.
 */
export function placeWithoutCollisions(
  items: Item[],
  sides: Sides,
  stays: (item: Item) => boolean,
  copyName: (item: Item, path: SyncPath) => SyncPath,
  report: ReportIssue,
): { targets: Map<Item, SyncPath>; skipped: Set<Item> } {
  const renames = new Map<Item, string>();
  // Each round settles the collisions it sees by renaming; a renamed folder can only make new
  // ones deeper down. What is left out is decided afresh each round, as renames may settle it.
  for (let round = 0; ; round += 1) {
    const targets = computeTargets(items, sides, renames);
    const byKey = new Map<string, Item[]>();
    for (const item of items) {
      if (!stays(item)) continue;
      const key = pathKey(targets.get(item)!);
      byKey.set(key, [...(byKey.get(key) ?? []), item]);
    }
    const skipped = new Set<Item>();
    let renamed = false;
    for (const group of byKey.values()) {
      if (group.length < 2) continue;
      const target = targets.get(group[0]!)!;
      // In a share this device only views nothing can be renamed on the server: all that is
      // not already in place waits (reported), so nothing overwrites what the disk keeps.
      if (group.some((item) => roleOf(item, sides) === 'viewer')) {
        for (const item of group) if (item.local?.path !== target || item.remote?.path !== target) skipped.add(item);
        continue;
      }
      for (const item of [...group].sort(precedence(target)).slice(1)) {
        if (item.remote && round <= items.length) {
          const copy = copyName(item, targets.get(item)!);
          renames.set(item, nameOf(copy));
          report({ path: copy, kind: 'conflict', message: `Two items wanted "${target}": this one is kept as "${copy}"` });
          renamed = true;
        } else {
          skipped.add(item);
        }
      }
    }
    if (renamed) continue;
    const reported = [...skipped];
    // Where an item left out stands on each side once the folders above it have moved.
    const standsAfter = (item: Item, side: 'local' | 'remote') => {
      const path = item[side]?.path;
      if (path === undefined) return undefined;
      const parent = (side === 'local' ? sides.byLocalPath : sides.byRemotePath).get(parentOf(path));
      return joinPath(parent ? targets.get(parent)! : parentOf(path), nameOf(path));
    };
    // What would go inside an item left out, or where it still stands, waits with it.
    for (let grown = true; grown;) {
      grown = false;
      const held = new Set<string>();
      for (const item of skipped) {
        held.add(pathKey(targets.get(item)!));
        for (const side of ['local', 'remote'] as const) {
          const path = standsAfter(item, side);
          if (path !== undefined) held.add(pathKey(path));
        }
      }
      for (const item of items) {
        if (!stays(item) || skipped.has(item)) continue;
        const key = pathKey(targets.get(item)!);
        let blocked = held.has(key);
        for (let folder = parentOf(key); folder !== '' && !blocked; folder = parentOf(folder)) blocked = held.has(folder);
        if (blocked) {
          skipped.add(item);
          grown = true;
        }
      }
    }
    // Once per place: what waits inside a folder named already is not named again.
    const named: SyncPath[] = [];
    for (const item of [...reported, ...skipped]) {
      for (const path of [standsAfter(item, 'local'), standsAfter(item, 'remote')]) {
        if (path === undefined || named.some((folder) => isAtOrUnder(path, folder))) continue;
        named.push(path);
        report({ path, kind: 'name', message: `"${path}" would take the place of another item: not synced until one of them is renamed` });
      }
    }
    return { targets, skipped };
  }
}
