import type { Action, Role, SyncPath } from '../model.ts';
import type { Item } from './match.ts';
import { comparePaths, depthOf, isAtOrUnder, joinPath, nameOf, parentOf, pathKey, rebase } from './paths.ts';
import { kindOf } from './sides.ts';

/** The folders and moves of a pass, and where a path that existed before them is once they are done. */
export interface Structure {
  actions: Action[];
  /** Items carried to their place by a move of their own. */
  moved: Set<Item>;
  localPathAfter: (path: SyncPath) => SyncPath;
  remotePathAfter: (path: SyncPath) => SyncPath;
}

/** A deletion of one item on one side, `path` where it was before the pass. */
export interface Deletion {
  item: Item;
  action: Extract<Action, { type: 'deleteLocal' | 'deleteRemote' }>;
}

/** One side's moves so far, and what stood where before them. */
interface SideMoves {
  side: 'local' | 'remote';
  moves: Array<[from: SyncPath, to: SyncPath]>;
  /** The items that stay, by where they stood before the pass (as the side compares names). */
  stood: Map<string, Item>;
  key: (path: SyncPath) => string;
}

const pathAfter = ({ moves }: SideMoves, path: SyncPath) => moves.reduce((current, [from, to]) => rebase(current, from, to), path);
const pathBefore = ({ moves }: SideMoves, path: SyncPath) => moves.reduceRight((current, [from, to]) => rebase(current, to, from), path);

/**
 * Moves and new folders, shallowest target first, so a folder is in place (moved or made)
 * before anything goes into it. At one depth: first the `freeing` deletions (of what stands
 * where something that stays goes: a file that became a folder), then moves (which may free
 * a name a new folder takes), then new folders. Each move's `from` is where the item is once
 * the moves before it are done: a folder's move carries its subtree, whose items are not
 * moved again. A deletion that frees a place first lets out what stays inside it. A place still held by an item that moves later (renames in a chain or a
 * swap, a file moving into a new folder of its own name) is first vacated: that item moves
 * to `NAME (moving N)` beside it, and on to its place in its turn.
 */
export function placeStructure(
  live: Item[],
  freeing: Deletion[],
  targetOf: (item: Item) => SyncPath,
  roleOf: (item: Item) => Role,
  caseInsensitiveDisk: boolean,
): Structure {
  const sideMoves = (side: 'local' | 'remote', key: (path: SyncPath) => string): SideMoves => {
    let stood: Map<string, Item> | undefined;
    return {
      side,
      moves: [],
      key,
      // Built when first asked: a pass without moves or new folders never needs it.
      get stood() {
        stood ??= new Map(live.flatMap((item) => (item[side] ? [[key(item[side].path), item] as const] : [])));
        return stood;
      },
    };
  };
  const local = sideMoves('local', caseInsensitiveDisk ? pathKey : (path) => path);
  const remote = sideMoves('remote', pathKey);
  const structure: Structure = {
    actions: [],
    moved: new Set(),
    localPathAfter: (path) => pathAfter(local, path),
    remotePathAfter: (path) => pathAfter(remote, path),
  };
  let vacated = 0;

  const move = (item: Item, on: SideMoves, to: SyncPath) => {
    const from = pathAfter(on, item[on.side]!.path);
    if (from === to) return;
    const kind = kindOf(item);
    if (on.side === 'remote') structure.actions.push({ type: 'moveRemote', from, to, kind, remoteId: item.remote!.id });
    else {
      const caseOnly = caseInsensitiveDisk && pathKey(from) === pathKey(to);
      const remoteId = (item.remote?.id ?? item.base?.remoteId)!;
      structure.actions.push({ type: 'moveLocal', from, to, kind, remoteId, ...(caseOnly ? { throughTemporaryName: true } : {}) });
    }
    on.moves.push([from, to]);
    structure.moved.add(item);
  };
  let depth = 0;
  /**
   * Moves on an item that still holds `place` on one side and is bound elsewhere: straight to
   * its own place when the folder for it is already there (a chain of renames), else aside to
   * `NAME (moving N)` (a swap; a place deeper down).
   */
  const heldBy = (place: SyncPath, on: SideMoves) => {
    const holder = on.stood.get(on.key(pathBefore(on, place)));
    return holder && on.key(pathAfter(on, holder[on.side]!.path)) === on.key(place) ? holder : undefined;
  };
  const vacate = (place: SyncPath, on: SideMoves, coming: Item, chain = new Set<Item>([coming])) => {
    const holder = heldBy(place, on);
    if (!holder || chain.has(holder) || on.key(targetOf(holder)) === on.key(place)) return;
    if (on.side === 'local' && !(holder.remote ?? holder.base)) return;
    const own = targetOf(holder);
    if (depthOf(own) <= depth) {
      vacate(own, on, holder, chain.add(holder));
      if (!heldBy(own, on)) {
        move(holder, on, own);
        return;
      }
    }
    vacated += 1;
    move(holder, on, joinPath(parentOf(place), `${nameOf(place)} (moving ${vacated})`));
  };

  /**
   * Before a deletion that frees a place, what stays but still sits inside it (bound
   * elsewhere, or for the very place) steps out beside it, `NAME (moving N)`, and goes on to
   * its place in its turn.
   */
  const getOut = (deleted: SyncPath, on: SideMoves) => {
    const inside = [...on.stood.values()]
      .map((item) => ({ item, now: pathAfter(on, item[on.side]!.path) }))
      .filter(({ now }) => now !== deleted && isAtOrUnder(now, deleted))
      .sort((a, b) => comparePaths(a.now, b.now));
    const out: SyncPath[] = [];
    for (const { item, now } of inside) {
      if (out.some((path) => isAtOrUnder(now, path)) || (on.side === 'local' && !(item.remote ?? item.base))) continue;
      out.push(now);
      vacated += 1;
      move(item, on, joinPath(parentOf(deleted), `${nameOf(now)} (moving ${vacated})`));
    }
  };

  const byDepth = new Map<number, { items: Item[]; freeing: Deletion[] }>();
  const level = (path: SyncPath) => {
    const depth = depthOf(path);
    if (!byDepth.has(depth)) byDepth.set(depth, { items: [], freeing: [] });
    return byDepth.get(depth)!;
  };
  for (const item of [...live].sort((a, b) => comparePaths(targetOf(a), targetOf(b)))) level(targetOf(item)).items.push(item);
  for (const deletion of freeing) level(targetOf(deletion.item)).freeing.push(deletion);

  for (depth of [...byDepth.keys()].sort((a, b) => a - b)) {
    const { items, freeing: deletions } = byDepth.get(depth)!;
    for (const { action } of deletions) {
      const on = action.type === 'deleteRemote' ? remote : local;
      const path = pathAfter(on, action.path);
      getOut(path, on);
      structure.actions.push({ ...action, path });
    }
    for (const item of items) {
      const to = targetOf(item);
      for (const on of [local, remote]) {
        const now = item[on.side];
        if (!now || pathAfter(on, now.path) === to || (on.side === 'local' && !(item.remote ?? item.base))) continue;
        vacate(to, on, item);
        move(item, on, to);
      }
    }
    for (const item of items) {
      if (kindOf(item) !== 'folder') continue;
      const to = targetOf(item);
      if (!item.local) {
        vacate(to, local, item);
        structure.actions.push({ type: 'mkdirLocal', path: to, remoteId: item.remote!.id });
      } else if (!item.remote && roleOf(item) === 'viewer') {
        structure.actions.push({ type: 'readOnly', path: to, reason: 'a folder made in a shared folder you can only view' });
      } else if (!item.remote) {
        vacate(to, remote, item);
        structure.actions.push({ type: 'mkdirRemote', path: to });
      }
    }
  }
  return structure;
}
