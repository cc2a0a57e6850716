import type { BaseEntry, LocalEntry, RemoteEntry, Snapshot } from '../model.ts';
import { pathKey } from './paths.ts';

/**
 * Whether both sides hold exactly what the base holds: the same paths, each of the same kind,
 * on the server the same item (id) with the same content, on disk the same content with the
 * same mtime and inode, and no two paths the server would count as one. Nothing was then
 * added, changed, moved or deleted anywhere, and planPass's answer is an empty plan with no
 * issue (the property test checks it on random trees), so it can be given without matching
 * and placing every item: over an unchanged tree of 100,000 files that was most of the pass's
 * time and memory.
 */
export function allSidesAsBase(base: Snapshot<BaseEntry>, local: Snapshot<LocalEntry>, remote: Snapshot<RemoteEntry>): boolean {
  if (remote.size !== base.size || !diskAsBase(base, local)) return false;
  const keys = new Set<string>();
  for (const [path, agreed] of base) {
    const server = remote.get(path);
    if (!server || server.kind !== agreed.kind || server.id !== agreed.remoteId) return false;
    if (agreed.kind === 'file' && (server.hash !== agreed.hash || server.size !== agreed.size)) return false;
    keys.add(pathKey(path));
  }
  return keys.size === base.size;
}

/** The disk's half of allSidesAsBase: the same paths and kinds, and each file's content, size, mtime and inode. */
export function diskAsBase(base: Snapshot<BaseEntry>, local: Snapshot<LocalEntry>): boolean {
  if (local.size !== base.size) return false;
  for (const [path, agreed] of base) if (!onDiskAsAgreed(local.get(path), agreed)) return false;
  return true;
}

/** One item of diskAsBase: the disk holds what was agreed at its path (a file: the same content, size, mtime and inode). */
export function onDiskAsAgreed(disk: LocalEntry | undefined, agreed: BaseEntry | undefined): boolean {
  if (!disk || !agreed || disk.kind !== agreed.kind) return false;
  if (agreed.kind !== 'file') return true;
  return disk.hash === agreed.hash && disk.size === agreed.size && disk.mtimeMs === agreed.mtimeMs && disk.inode === agreed.inode;
}
