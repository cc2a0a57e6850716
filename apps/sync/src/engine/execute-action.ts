/**
 * Carries out one action on the disk or the drive and records its completion in the
 * journal at once, in its own small transaction: a pass killed after any action is
 * replanned from the journal and both sides, and nothing done is done twice.
 */
import type { Action, BaseEntry, LocalEntry, RemoteEntry, Snapshot, SyncPath } from '../model.ts';
import type { Batcher } from './batcher.ts';
import type { DownloadItem, Journal, LocalSide, RemoteSide, UploadItem } from './ports.ts';

/** What one pass's actions share. */
export interface ExecutionContext {
  local: LocalSide;
  remote: RemoteSide;
  journal: Pick<Journal, 'agree' | 'forget' | 'move' | 'report' | 'resolve'>;
  /** The drive folder ids by sync path ('' is the pair's root), kept current as folders are made and moved. */
  folderIds: Map<SyncPath, string | null>;
  /** What the scan found (as the planner saw it): a download or a copy replaces only that. */
  localEntries: Snapshot<LocalEntry>;
  remoteEntries: Snapshot<RemoteEntry>;
  upload: Batcher<UploadItem>;
  download: Batcher<DownloadItem>;
  now: () => Date;
}

const parentOf = (path: SyncPath) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
const nameOf = (path: SyncPath) => path.slice(path.lastIndexOf('/') + 1);

function folderIdOf(context: ExecutionContext, path: SyncPath): string | null {
  const id = context.folderIds.get(parentOf(path));
  if (id === undefined) throw new Error(`the drive has no folder ${parentOf(path) || '/'} yet`);
  return id;
}

function scanned(context: ExecutionContext, path: SyncPath): LocalEntry {
  const entry = context.localEntries.get(path);
  if (!entry) throw new Error(`${path} is no longer on disk`);
  return entry;
}

/** The base entry for a file both sides now hold: the disk's identity as scanned or as now, the content agreed. */
function agreedFile(path: SyncPath, remoteId: string, disk: LocalEntry, size: number, hash: string): BaseEntry {
  return { path, kind: 'file', remoteId, size, hash, mtimeMs: disk.mtimeMs, inode: disk.inode };
}

/**
 * Records a file both sides hold at `entry.path`. The journal keeps one row per server file: a
 * row the file had elsewhere (moved on both sides alike, or moved on the server and lost on
 * disk, then downloaded to its new place) goes, else the next pass would see two places for
 * one file and pull it back and forth between them.
 */
function agreeFile(context: ExecutionContext, entry: BaseEntry): void {
  context.journal.move(entry.remoteId, entry.path);
  context.journal.agree(entry);
}

async function onDisk(context: ExecutionContext, path: SyncPath): Promise<LocalEntry> {
  const entry = await context.local.stat(path);
  if (!entry) throw new Error(`${path} vanished from disk as it was written`);
  return entry;
}

function transferred(result: { id: string } | { error: string }): string {
  if ('error' in result) throw new Error(result.error);
  return result.id;
}

/** Keeps the folder ids of a moved folder and everything beneath it under their new paths. */
function moveFolderIds(context: ExecutionContext, from: SyncPath, to: SyncPath): void {
  for (const [path, id] of [...context.folderIds]) {
    if (path === from) {
      context.folderIds.delete(path);
      context.folderIds.set(to, id);
    } else if (path.startsWith(`${from}/`)) {
      context.folderIds.delete(path);
      context.folderIds.set(to + path.slice(from.length), id);
    }
  }
}

/**
 * Uploads the local content at `path` as a new file (or new content of `remoteId`); answers
 * the server file's id. Its base uses the disk's mtime and inode as scanned, so an edit made
 * while it was uploading is seen as a change by the next scan.
 */
async function uploadFile(context: ExecutionContext, path: SyncPath, entry: LocalEntry, remoteId?: string): Promise<string> {
  const hash = entry.hash;
  if (hash === undefined) throw new Error(`${path} has no hash to upload with`);
  const item: UploadItem = { path, folderId: folderIdOf(context, path), name: nameOf(path), size: entry.size, hash };
  if (remoteId !== undefined) item.remoteId = remoteId;
  const id = transferred(await context.upload(item));
  agreeFile(context, agreedFile(path, id, entry, entry.size, hash));
  return id;
}

/** Carries out `action` and records it; throws a readable error when it could not be done. */
export async function executeAction(context: ExecutionContext, action: Action): Promise<void> {
  const { local, remote, journal } = context;
  switch (action.type) {
    case 'upload': {
      await uploadFile(context, action.path, scanned(context, action.path), action.remoteId);
      break;
    }
    case 'download': {
      const item: DownloadItem = { path: action.path, remoteId: action.remoteId, size: action.size, hash: action.hash };
      const expected = context.localEntries.get(action.path);
      if (expected) item.expected = expected;
      transferred(await context.download(item));
      agreeFile(context, agreedFile(action.path, action.remoteId, await onDisk(context, action.path), action.size, action.hash));
      break;
    }
    case 'copyRemote': {
      const entry = scanned(context, action.path);
      const copy = await remote.copy(action.fromRemoteId, folderIdOf(context, action.path), nameOf(action.path));
      journal.agree(agreedFile(action.path, copy.id, entry, action.size, action.hash));
      break;
    }
    case 'copyLocal': {
      await local.copy(action.from, action.path, { hash: action.hash, expected: context.localEntries.get(action.path) });
      agreeFile(context, agreedFile(action.path, action.remoteId, await onDisk(context, action.path), action.size, action.hash));
      break;
    }
    case 'mkdirRemote': {
      const entry = scanned(context, action.path);
      const id = await remote.mkdir(folderIdOf(context, action.path), nameOf(action.path));
      context.folderIds.set(action.path, id);
      journal.agree({ path: action.path, kind: 'folder', remoteId: id, size: 0, mtimeMs: entry.mtimeMs, inode: entry.inode });
      break;
    }
    case 'mkdirLocal': {
      await local.mkdir(action.path);
      const entry = await onDisk(context, action.path);
      journal.agree({ path: action.path, kind: 'folder', remoteId: action.remoteId, size: 0, mtimeMs: entry.mtimeMs, inode: entry.inode });
      break;
    }
    case 'moveRemote': {
      const target: { name?: string; parentId?: string | null } = {};
      if (nameOf(action.from) !== nameOf(action.to)) target.name = nameOf(action.to);
      if (parentOf(action.from) !== parentOf(action.to)) target.parentId = folderIdOf(context, action.to);
      await remote.move(action.kind, action.remoteId, target);
      journal.move(action.remoteId, action.to);
      if (action.kind === 'folder') moveFolderIds(context, action.from, action.to);
      break;
    }
    case 'moveLocal': {
      await local.move(action.from, action.to);
      journal.move(action.remoteId, action.to);
      break;
    }
    case 'deleteRemote': {
      await remote.delete(action.kind, action.remoteId);
      journal.forget(action.path);
      break;
    }
    case 'deleteLocal': {
      await local.trash(action.path);
      journal.forget(action.path);
      break;
    }
    case 'conflict': {
      // This device's version moves aside under the copy's name and goes up as a new file;
      // then the server's version comes down to the original name. Both survive on both sides.
      const mine = scanned(context, action.path);
      await local.move(action.path, action.copyPath);
      // Forgotten at once: killed before the rest, the next pass sees the server's file as new
      // (downloaded) and the copy as a new local file (uploaded), never this rename as a
      // deletion or a move of the server's version.
      journal.forget(action.path);
      await uploadFile(context, action.copyPath, { ...mine, path: action.copyPath, size: action.copySize, hash: action.copyHash });
      const item: DownloadItem = { path: action.path, remoteId: action.remoteId, size: action.size, hash: action.hash };
      transferred(await context.download(item));
      agreeFile(context, agreedFile(action.path, action.remoteId, await onDisk(context, action.path), action.size, action.hash));
      journal.report({
        path: action.copyPath,
        kind: 'conflict',
        message: `${action.path} was changed on both sides: this device's version is kept as ${nameOf(action.copyPath)}`,
        at: context.now().toISOString(),
      });
      break;
    }
    case 'agree': {
      if (action.entry.kind === 'file') agreeFile(context, action.entry);
      else journal.agree(action.entry);
      break;
    }
    case 'forget': {
      journal.forget(action.path);
      break;
    }
    case 'readOnly': {
      journal.report({ path: action.path, kind: 'read-only', message: action.reason, at: context.now().toISOString() });
      break;
    }
  }
}
