import type { SyncPath } from '../model.ts';
import type { Item } from './match.ts';
import { joinPath, nameOf, parentOf, pathKey } from './paths.ts';
import { movedOn, type Sides } from './sides.ts';

/**
 * Where each item ends up once the pass is done, on both sides. The server's own move wins
 * the place; else the disk's; else the item stays in its base folder by its base name. A
 * parent's place carries its children, so a folder moved on one side and a child renamed on
 * the other both hold. `overrides` place items elsewhere (conflicted copies' names).
 */
export function computeTargets(items: Item[], sides: Sides, overrides: Map<Item, SyncPath>): Map<Item, SyncPath> {
  const targets = new Map<Item, SyncPath>();
  const visiting = new Set<Item>();

  const under = (index: Map<SyncPath, Item>, path: SyncPath): SyncPath => {
    const parentPath = parentOf(path);
    const parent = parentPath === '' ? undefined : index.get(parentPath);
    return joinPath(parent ? targetOf(parent) : parentPath, nameOf(path));
  };

  const place = (item: Item): SyncPath => {
    const { base, local, remote } = item;
    if (remote && (!base || movedOn('remote', item, sides))) return under(sides.byRemotePath, remote.path);
    // A viewer's move on disk cannot reach the server: the server's place holds.
    if (local && (!base || (movedOn('local', item, sides) && remote?.role !== 'viewer'))) return under(sides.byLocalPath, local.path);
    return under(sides.byBasePath, base!.path);
  };

  function targetOf(item: Item): SyncPath {
    const known = targets.get(item);
    if (known !== undefined) return known;
    const override = overrides.get(item);
    if (override !== undefined) {
      targets.set(item, override);
      return override;
    }
    // Moves that put each folder inside the other (one on each side): the server's side holds.
    if (visiting.has(item)) return (item.remote ?? item.local ?? item.base)!.path;
    visiting.add(item);
    const target = place(item);
    visiting.delete(item);
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
  copyName: (path: SyncPath) => SyncPath,
  report: ReportIssue,
): { targets: Map<Item, SyncPath>; skipped: Set<Item> } {
  const overrides = new Map<Item, SyncPath>();
  const skipped = new Set<Item>();
  // Each round settles every collision it sees; a renamed folder can only make new ones deeper down.
  for (let round = 0; ; round += 1) {
    const targets = computeTargets(items, sides, overrides);
    const byKey = new Map<string, Item[]>();
    for (const item of items) {
      if (!stays(item) || skipped.has(item)) continue;
      const key = pathKey(targets.get(item)!);
      byKey.set(key, [...(byKey.get(key) ?? []), item]);
    }
    const collisions = [...byKey.values()].filter((group) => group.length > 1);
    if (collisions.length === 0 || round > items.length) return { targets, skipped };
    for (const group of collisions) {
      const target = targets.get(group[0]!)!;
      const [, ...yielding] = [...group].sort(precedence(target));
      for (const item of yielding) {
        if (item.remote) {
          const copy = copyName(targets.get(item)!);
          overrides.set(item, copy);
          report({ path: copy, kind: 'conflict', message: `Two items wanted "${target}": this one is kept as "${copy}"` });
        } else {
          skipped.add(item);
          report({ path: item.local!.path, kind: 'name', message: `"${item.local!.path}" would take the name of another item on the server: not synced` });
        }
      }
    }
  }
}
