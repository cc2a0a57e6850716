import type { SyncPath } from '../model.ts';
import type { Item } from './match.ts';
import { joinPath, nameOf, parentOf, pathKey } from './paths.ts';
import { movedOn, type Sides } from './sides.ts';

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
    // A viewer's move on disk cannot reach the server: the server's place holds.
    const diskWins = !base || (movedOn('local', item, sides) && remote?.role !== 'viewer' && !overruled.has(item));
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
    for (const item of skipped) {
      const path = (item.local ?? item.remote ?? item.base)!.path;
      report({ path, kind: 'name', message: `"${path}" would take the name of another item on the server: not synced` });
    }
    return { targets, skipped };
  }
}

