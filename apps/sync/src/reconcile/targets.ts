import type { SyncPath } from '../model.ts';
import type { Item } from './match.ts';
import { joinPath, nameOf, parentOf, pathKey } from './paths.ts';
import { movedOn, type Sides } from './sides.ts';

/**
 * Where each item ends up once the pass is done, on both sides. The server's own move wins
 * the place; else the disk's; else the item stays in its base folder by its base name. A
 * parent's place carries its children, so a folder moved on one side and a child renamed on
 * the other both hold. `renames` give items another name in the same folder (conflicted copies' names).
 */
export function computeTargets(items: Item[], sides: Sides, renames: Map<Item, string>): Map<Item, SyncPath> {
  const targets = new Map<Item, SyncPath>();
  const visiting = new Set<Item>();

  // Undefined when the parent is being placed itself: a cycle (each side moved a folder into the other).
  const under = (index: Map<SyncPath, Item>, path: SyncPath): SyncPath | undefined => {
    const parentPath = parentOf(path);
    const parent = parentPath === '' ? undefined : index.get(parentPath);
    if (parent && visiting.has(parent)) return undefined;
    return joinPath(parent ? targetOf(parent) : parentPath, nameOf(path));
  };

  // The first place that does not close a cycle: the server's move, the disk's, the base's.
  const place = (item: Item): SyncPath => {
    const { base, local, remote } = item;
    const ownRemote = remote && (!base || movedOn('remote', item, sides)) ? under(sides.byRemotePath, remote.path) : undefined;
    // A viewer's move on disk cannot reach the server: the server's place holds.
    const localWins = local && (!base || (movedOn('local', item, sides) && remote?.role !== 'viewer'));
    const ownLocal = ownRemote ?? (localWins ? under(sides.byLocalPath, local.path) : undefined);
    return ownLocal ?? (base && under(sides.byBasePath, base.path)) ?? (remote ?? local ?? base)!.path;
  };

  function targetOf(item: Item): SyncPath {
    const known = targets.get(item);
    if (known !== undefined) return known;
    visiting.add(item);
    const placed = place(item);
    visiting.delete(item);
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
  const skipped = new Set<Item>();
  // Each round settles every collision it sees; a renamed folder can only make new ones deeper down.
  for (let round = 0; ; round += 1) {
    const targets = computeTargets(items, sides, renames);
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
      const yielding = [...group].sort(precedence(target)).slice(1);
      for (const item of yielding) {
        if (item.remote) {
          const copy = copyName(item, targets.get(item)!);
          renames.set(item, nameOf(copy));
          report({ path: copy, kind: 'conflict', message: `Two items wanted "${target}": this one is kept as "${copy}"` });
        } else {
          skipped.add(item);
          report({ path: item.local!.path, kind: 'name', message: `"${item.local!.path}" would take the name of another item on the server: not synced` });
        }
      }
    }
  }
}

