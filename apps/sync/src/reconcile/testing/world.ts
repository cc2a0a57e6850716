import { createHash } from 'node:crypto';
import type { BaseEntry, LocalEntry, RemoteEntry, Role, Snapshot, SyncPath } from '../../model.ts';
import { isAtOrUnder, rebase } from '../paths.ts';
import { type Plan, type PlanOptions, planPass } from '../plan-pass.ts';

/** The three snapshots a test builds by hand: what the journal agreed on, the disk, the server. */
export interface World {
  base: Snapshot<BaseEntry>;
  local: Snapshot<LocalEntry>;
  remote: Snapshot<RemoteEntry>;
}

/** A content's hash, as the scanner and the server write it. */
export const hashOf = (content: string) => createHash('sha256').update(content).digest('hex');

/** A clock reading for conflict names: 6 December 2026, 15:30:12 local time. */
export const NOW = new Date(2026, 11, 6, 15, 30, 12);

/** A tree both sides hold as the journal says: `null` is a folder, a string a file's content. */
export function synced(tree: Record<SyncPath, string | null>): World {
  const world: World = { base: new Map(), local: new Map(), remote: new Map() };
  for (const [path, content] of Object.entries(tree)) {
    const kind = content === null ? 'folder' : 'file';
    const size = content?.length ?? 0;
    const hash = content === null ? {} : { hash: hashOf(content) };
    world.base.set(path, { path, kind, remoteId: `r:${path}`, size, mtimeMs: 1000, inode: `i:${path}`, ...hash });
    world.local.set(path, { path, kind, size, mtimeMs: 1000, inode: `i:${path}`, ...hash });
    world.remote.set(path, { path, kind, id: `r:${path}`, size, role: 'owner', ...hash });
  }
  return world;
}

const entryOf = (content: string | null) =>
  content === null ? { kind: 'folder' as const, size: 0 } : { kind: 'file' as const, size: content.length, hash: hashOf(content) };

function moveSubtree<T extends { path: SyncPath }>(snapshot: Snapshot<T>, from: SyncPath, to: SyncPath): void {
  for (const [path, entry] of [...snapshot]) {
    if (!isAtOrUnder(path, from)) continue;
    snapshot.delete(path);
    const moved = rebase(path, from, to);
    snapshot.set(moved, { ...entry, path: moved });
  }
}

function removeSubtree(snapshot: Snapshot<{ path: SyncPath }>, path: SyncPath): void {
  for (const key of [...snapshot.keys()]) if (isAtOrUnder(key, path)) snapshot.delete(key);
}

/** `wanted`, or with a counter when something already holds it: ids and inodes stay unique. */
function fresh(wanted: string, taken: string[]): string {
  let candidate = wanted;
  for (let counter = 2; taken.includes(candidate); counter += 1) candidate = `${wanted}#${counter}`;
  return candidate;
}

/** Changes made on the disk since the base. */
export const onDisk = {
  /** New content in place (same inode, a later mtime). */
  edit(world: World, path: SyncPath, content: string) {
    const entry = world.local.get(path)!;
    world.local.set(path, { ...entry, ...entryOf(content), mtimeMs: entry.mtimeMs + 1 });
  },
  add(
    world: World,
    path: SyncPath,
    content: string | null,
    inode = fresh(
      `n:${path}`,
      [...world.local.values()].map((entry) => entry.inode),
    ),
  ) {
    world.local.set(path, { path, mtimeMs: 2000, inode, ...entryOf(content) });
  },
  remove(world: World, path: SyncPath) {
    removeSubtree(world.local, path);
  },
  /** A rename or move: inodes, mtimes and content travel. */
  move(world: World, from: SyncPath, to: SyncPath) {
    moveSubtree(world.local, from, to);
  },
};

/** Changes made on the server since the base. */
export const onServer = {
  edit(world: World, path: SyncPath, content: string) {
    world.remote.set(path, { ...world.remote.get(path)!, ...entryOf(content) });
  },
  add(world: World, path: SyncPath, content: string | null, role: Role = 'owner') {
    const id = fresh(
      `n:${path}`,
      [...world.remote.values()].map((entry) => entry.id),
    );
    world.remote.set(path, { path, id, role, ...entryOf(content) });
  },
  remove(world: World, path: SyncPath) {
    removeSubtree(world.remote, path);
  },
  /** A move keeps the ids. */
  move(world: World, from: SyncPath, to: SyncPath) {
    moveSubtree(world.remote, from, to);
  },
  /** The caller holds `path` and its subtree through a share with this role. */
  share(world: World, path: SyncPath, role: Role) {
    for (const [key, entry] of world.remote) if (isAtOrUnder(key, path)) world.remote.set(key, { ...entry, role });
  },
};

/** The plan for the world as it stands, by the device `laptop` at NOW. */
export function plan(world: World, options: Partial<PlanOptions> = {}): Plan {
  return planPass({ ...world, options: { deviceName: 'laptop', now: NOW, ...options } });
}
