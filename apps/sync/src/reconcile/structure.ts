import type { Action, Role, SyncPath } from '../model.ts';
import type { Item } from './match.ts';
import { comparePaths, depthOf, rebase } from './paths.ts';
import { kindOf } from './sides.ts';

/** The folders and moves of a pass, and where a path that existed before them is once they are done. */
export interface Structure {
  actions: Action[];
  /** Items carried to their place by a move of their own. */
  moved: Set<Item>;
  localPathAfter: (path: SyncPath) => SyncPath;
  remotePathAfter: (path: SyncPath) => SyncPath;
}

type Moves = Array<[from: SyncPath, to: SyncPath]>;
const after = (moves: Moves) => (path: SyncPath) => moves.reduce((current, [from, to]) => rebase(current, from, to), path);

/**
 * Moves and new folders, shallowest target first, so a folder is in place (moved or made)
 * before anything goes into it; at one depth moves come before new folders, as a move may
 * free the name a new folder takes. Each move's `from` is where the item is once the moves
 * before it are done: a folder's move carries its subtree, whose items are not moved again.
 */
export function placeStructure(
  live: Item[],
  targetOf: (item: Item) => SyncPath,
  roleOf: (item: Item) => Role,
  caseInsensitiveDisk: boolean,
): Structure {
  const localMoves: Moves = [];
  const remoteMoves: Moves = [];
  const structure: Structure = { actions: [], moved: new Set(), localPathAfter: after(localMoves), remotePathAfter: after(remoteMoves) };
  const byDepth = new Map<number, Item[]>();
  for (const item of [...live].sort((a, b) => comparePaths(targetOf(a), targetOf(b)))) {
    const depth = depthOf(targetOf(item));
    byDepth.set(depth, [...(byDepth.get(depth) ?? []), item]);
  }
  for (const depth of [...byDepth.keys()].sort((a, b) => a - b)) {
    const level = byDepth.get(depth)!;
    for (const item of level) moveIntoPlace(item, targetOf(item), structure, localMoves, remoteMoves, caseInsensitiveDisk);
    for (const item of level) makeFolder(item, targetOf(item), roleOf(item), structure.actions);
  }
  return structure;
}

function moveIntoPlace(item: Item, to: SyncPath, structure: Structure, localMoves: Moves, remoteMoves: Moves, caseInsensitiveDisk: boolean) {
  const kind = kindOf(item);
  const remoteId = item.remote?.id ?? item.base?.remoteId;
  if (item.local && remoteId) {
    const from = structure.localPathAfter(item.local.path);
    if (from !== to) {
      const caseOnly = caseInsensitiveDisk && from.toLowerCase() === to.toLowerCase();
      structure.actions.push({ type: 'moveLocal', from, to, kind, remoteId, ...(caseOnly ? { throughTemporaryName: true } : {}) });
      localMoves.push([from, to]);
      structure.moved.add(item);
    }
  }
  if (item.remote) {
    const from = structure.remotePathAfter(item.remote.path);
    if (from !== to) {
      structure.actions.push({ type: 'moveRemote', from, to, kind, remoteId: item.remote.id });
      remoteMoves.push([from, to]);
      structure.moved.add(item);
    }
  }
}

function makeFolder(item: Item, path: SyncPath, role: Role, actions: Action[]) {
  if (kindOf(item) !== 'folder') return;
  if (!item.local) actions.push({ type: 'mkdirLocal', path, remoteId: item.remote!.id });
  else if (!item.remote && role === 'viewer') actions.push({ type: 'readOnly', path, reason: 'a folder made in a shared folder you can only view' });
  else if (!item.remote) actions.push({ type: 'mkdirRemote', path });
}
