/**
 * Changes to the disk the engine makes on the planner's word, each by sync path: a
 * download put in place, a move, a conflict's copy, a deletion into the local trash. None
 * of them replaces what it did not expect to find: a surprise is answered, so the engine
 * re-plans rather than losing a change made since the scan.
 */
import { constants } from 'node:fs';
import { copyFile, mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { LocalEntry, SyncPath } from '../model.ts';
import { type DiskStats, diskStats } from './disk-stats.ts';
import { hashFile } from './hash.ts';
import type { LocalNames } from './names.ts';
import { localStamp, tempPathFor, trashDir } from './private-area.ts';

/** A synced folder as the engine changes it: its root, its name translation, whether its disk ignores case. */
export interface LocalTree {
  root: string;
  names: LocalNames;
  caseInsensitive: boolean;
}

/** What the disk held at a path when the journal last agreed on it (absent: nothing was expected there). */
export type Expected = Pick<LocalEntry, 'kind' | 'size' | 'mtimeMs' | 'inode'> | undefined;

export type PlaceResult =
  | { status: 'placed'; entry: LocalEntry }
  /** The download's bytes are not the expected ones: the temporary file is deleted, the download is to be made again. */
  | { status: 'hash-mismatch'; actual: string }
  /** Something other than what the scan found is at the path (or in the way of its folder): re-plan; the temporary file is kept. */
  | { status: 'changed' };

export type MoveResult =
  | { status: 'moved'; entry: LocalEntry }
  /** Nothing at the source any more. */
  | { status: 'missing' }
  /** Something is already at the destination. */
  | { status: 'taken' };

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** The item at a path as an entry; it must be there (the caller just put it there). */
async function entryAt(syncPath: SyncPath, absPath: string, hash?: string): Promise<LocalEntry> {
  const stats = await diskStats(absPath);
  if (!stats) throw new Error(`${absPath} vanished right after it was put in place`);
  const folder = stats.kind === 'folder';
  return {
    path: syncPath,
    kind: folder ? 'folder' : 'file',
    size: folder ? 0 : stats.size,
    mtimeMs: stats.mtimeMs,
    inode: stats.inode,
    ...(hash ? { hash } : {}),
  };
}

function isAsExpected(stats: DiskStats, expected: Expected): boolean {
  if (!expected || stats.kind !== expected.kind) return false;
  return (
    expected.kind === 'folder' || (stats.size === expected.size && stats.mtimeMs === expected.mtimeMs && stats.inode === expected.inode)
  );
}

/** Creates the folders above a local path; false when a file stands where one of them should be. */
async function makeParents(root: string, localPath: string): Promise<boolean> {
  try {
    await mkdir(path.dirname(path.join(root, localPath)), { recursive: true });
    return true;
  } catch (error) {
    if (codeOf(error) === 'EEXIST' || codeOf(error) === 'ENOTDIR') return false;
    throw error;
  }
}

/**
 * Puts a finished download (`tmpFile`, in the private area) at `syncPath`: checks its
 * SHA-256 (`computedHash`, taken while it was written, else read now), flushes it to disk,
 * then renames it into place in one step, so the path holds the old content or the new,
 * never part of it. What is at the path must be what the scan found there (`expected`).
 */
export async function placeDownloaded(
  tree: LocalTree,
  tmpFile: string,
  syncPath: SyncPath,
  options: { expectedHash: string; computedHash?: string; expected: Expected },
): Promise<PlaceResult> {
  const actual = options.computedHash ?? (await hashFile(tmpFile));
  if (actual !== options.expectedHash) {
    await rm(tmpFile, { force: true });
    return { status: 'hash-mismatch', actual };
  }
  const localPath = tree.names.localPathFor(syncPath);
  const target = path.join(tree.root, localPath);
  const present = await diskStats(target);
  if (present && !isAsExpected(present, options.expected)) return { status: 'changed' };
  if (!(await makeParents(tree.root, localPath))) return { status: 'changed' };
  const handle = await open(tmpFile, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmpFile, target);
  return { status: 'placed', entry: await entryAt(syncPath, target, actual) };
}

/**
 * Content the disk already holds at `from`, copied to `to` rather than downloaded: through a
 * temporary file (a reflink where the filesystem has them), its hash checked against the
 * planner's (a source edited since the scan answers 'hash-mismatch'), then placed as a
 * download is, never over other than what the scan found at `to`.
 */
export async function copyLocal(
  tree: LocalTree,
  from: SyncPath,
  to: SyncPath,
  options: { expectedHash: string; expected: Expected },
): Promise<PlaceResult | { status: 'missing' }> {
  const temp = await tempPathFor(tree.root, `copy:${to}:${options.expectedHash}`);
  try {
    await copyFile(path.join(tree.root, tree.names.localPathFor(from)), temp, constants.COPYFILE_FICLONE);
  } catch (error) {
    if (codeOf(error) === 'ENOENT' || codeOf(error) === 'ENOTDIR') return { status: 'missing' };
    throw error;
  }
  return placeDownloaded(tree, temp, to, options);
}

/**
 * Moves (or renames) a local item from one sync path to another, folders with what is in
 * them. Never replaces: a destination already taken answers 'taken'. On a disk that ignores
 * case, a rename that changes only case goes through a temporary name, which every such
 * disk carries out.
 */
export async function moveLocal(tree: LocalTree, from: SyncPath, to: SyncPath): Promise<MoveResult> {
  const fromLocal = tree.names.localPathFor(from);
  const toLocal = tree.names.localPathFor(to);
  const source = path.join(tree.root, fromLocal);
  const target = path.join(tree.root, toLocal);
  const sourceStats = await diskStats(source);
  if (!sourceStats) return { status: 'missing' };
  const targetStats = await diskStats(target);
  const sameItem = targetStats !== undefined && targetStats.inode === sourceStats.inode;
  if (targetStats && !(sameItem && tree.caseInsensitive)) return { status: 'taken' };
  if (!(await makeParents(tree.root, toLocal))) return { status: 'taken' };
  if (sameItem) {
    const detour = `${source}.cloudvault-rename-${process.pid}`;
    await rename(source, detour);
    await rename(detour, target);
  } else {
    await rename(source, target);
  }
  tree.names.moved(from, to);
  return { status: 'moved', entry: await entryAt(to, target) };
}

/**
 * A conflict's local side: the local file at `syncPath` takes the name `copyPath` (from
 * the planner), so the server's content can come down to `syncPath` and both survive.
 */
export async function makeConflictCopy(tree: LocalTree, syncPath: SyncPath, copyPath: SyncPath): Promise<MoveResult> {
  return moveLocal(tree, syncPath, copyPath);
}

/**
 * Takes a local item (a folder with its content) off the tree into
 * `.cloudvault/trash/YYYY-MM-DD HHMMSS/<its local path>` (`now` in local time), where a
 * person can still find it. Answers where it went, or null when nothing was there.
 */
export async function moveToLocalTrash(tree: LocalTree, syncPath: SyncPath, now: Date): Promise<string | null> {
  const localPath = tree.names.localPathFor(syncPath);
  const source = path.join(tree.root, localPath);
  if (!(await diskStats(source))) {
    tree.names.forget(syncPath);
    return null;
  }
  const stamp = localStamp(now);
  // Two deletions of one path within a second: the second gets a folder of its own.
  for (let attempt = 1; ; attempt += 1) {
    const destination = path.join(trashDir(tree.root), attempt === 1 ? stamp : `${stamp} (${attempt})`, localPath);
    if (await diskStats(destination)) continue;
    await mkdir(path.dirname(destination), { recursive: true });
    await rename(source, destination);
    tree.names.forget(syncPath);
    return destination;
  }
}
