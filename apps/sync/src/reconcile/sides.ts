import type { EntryKind, Role, SyncPath } from '../model.ts';
import type { Item } from './match.ts';
import { joinPath, nameOf, parentOf } from './paths.ts';

/** What each side did to an item since the base, and where things stand: the facts the decision table reads. */
export interface Sides {
  byBasePath: Map<SyncPath, Item>;
  byLocalPath: Map<SyncPath, Item>;
  byRemotePath: Map<SyncPath, Item>;
}

/** Indexes the items by their path in the base and on each side. */
export function indexSides(items: Item[]): Sides {
  const sides: Sides = { byBasePath: new Map(), byLocalPath: new Map(), byRemotePath: new Map() };
  for (const item of items) {
    if (item.base) sides.byBasePath.set(item.base.path, item);
    if (item.local) sides.byLocalPath.set(item.local.path, item);
    if (item.remote) sides.byRemotePath.set(item.remote.path, item);
  }
  return sides;
}

/** The item's kind (both sides agree on it: items pair only entries of one kind). */
export function kindOf(item: Item): EntryKind {
  return (item.base ?? item.remote ?? item.local)!.kind;
}

/**
 * Whether one side moved or renamed the item itself, as opposed to it travelling with a
 * folder that moved: its path there is not where its base parent now sits on that side.
 */
export function movedOn(side: 'local' | 'remote', item: Item, sides: Sides): boolean {
  const now = item[side];
  if (!item.base || !now) return false;
  const parent = sides.byBasePath.get(parentOf(item.base.path));
  const parentNow = parent ? (parent[side]?.path ?? parent.base!.path) : parentOf(item.base.path);
  return now.path !== joinPath(parentNow, nameOf(item.base.path));
}

/** Whether the file's content on the disk differs from the base (a hash left out means unchanged: size, mtime and inode were). */
export function localChanged(item: Item): boolean {
  return item.local?.kind === 'file' && item.local.hash !== undefined && item.local.hash !== item.base?.hash;
}

/** Whether the server's content differs from the base. */
export function remoteChanged(item: Item): boolean {
  return item.remote?.kind === 'file' && item.remote.hash !== item.base?.hash;
}

/** The file's content on disk: its hash when read, else the base's (unchanged). */
export function localHash(item: Item): string {
  return item.local?.hash ?? item.base?.hash ?? '';
}

/** The role that rules a local item: its own on the server, else the nearest folder above it the server holds; the caller's own tree by default. */
export function roleOf(item: Item, sides: Sides): Role {
  if (item.remote) return item.remote.role;
  const path = item.local?.path ?? item.base!.path;
  const parentPath = parentOf(path);
  if (parentPath === '') return 'owner';
  const parent = sides.byLocalPath.get(parentPath) ?? sides.byBasePath.get(parentPath);
  return parent ? roleOf(parent, sides) : 'owner';
}
