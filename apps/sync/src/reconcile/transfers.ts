import type { Action, BaseEntry, Issue, LocalEntry, RemoteEntry, SyncPath } from '../model.ts';
import type { Item } from './match.ts';
import { comparePaths } from './paths.ts';
import { localChanged, localHash, movedOn, remoteChanged, roleOf, type Sides } from './sides.ts';

type Report = (path: SyncPath, kind: Issue['kind'], message: string) => void;

/** The base entry for an item both sides now hold alike. */
function agreed(path: SyncPath, local: LocalEntry, remote: RemoteEntry): BaseEntry {
  const entry: BaseEntry = { path, kind: remote.kind, remoteId: remote.id, size: remote.size, mtimeMs: local.mtimeMs, inode: local.inode };
  return remote.hash === undefined ? entry : { ...entry, hash: remote.hash };
}

/**
 * Where content already is, so it is copied rather than sent: server files that stay (not
 * deleted in this pass), and local files both sides hold unchanged where they were.
 */
function contentSources(live: Item[], targetOf: (item: Item) => SyncPath) {
  const onServer = new Map<string, RemoteEntry>();
  const staying = live.flatMap((item) => (item.remote ? [item.remote] : []));
  for (const entry of staying.sort((a, b) => comparePaths(a.path, b.path))) {
    if (entry.kind === 'file' && entry.hash && !onServer.has(entry.hash)) onServer.set(entry.hash, entry);
  }
  const onDisk = new Map<string, SyncPath>();
  for (const item of live) {
    const { base, local, remote: there } = item;
    if (!base?.hash || !local || !there || base.kind !== 'file' || localChanged(item) || remoteChanged(item)) continue;
    if (local.path === base.path && targetOf(item) === base.path && !onDisk.has(base.hash)) onDisk.set(base.hash, base.path);
  }
  return { onServer, onDisk };
}

const PHASE: Partial<Record<Action['type'], number>> = {
  copyRemote: 0,
  copyLocal: 0,
  conflict: 1,
  upload: 2,
  download: 2,
  agree: 3,
  readOnly: 3,
};
const pathOf = (action: Action) => ('path' in action ? action.path : action.type === 'agree' ? action.entry.path : '');

/**
 * The content steps, the decision table's rows for files: what goes up, what comes down,
 * what is copied on one side from content it already holds, what both sides already agree on,
 * what a viewer changed (kept, reported). Copies first (their sources are untouched files),
 * then conflicts, then transfers, then the journal's bookkeeping; by path within each.
 */
export function transfers(
  live: Item[],
  targetOf: (item: Item) => SyncPath,
  sides: Sides,
  moved: Set<Item>,
  copyName: (path: SyncPath) => SyncPath,
  report: Report,
): Action[] {
  const { onServer, onDisk } = contentSources(live, targetOf);
  const actions: Action[] = [];
  const readOnly = (path: SyncPath, reason: string) => {
    actions.push({ type: 'readOnly', path, reason });
    report(path, 'read-only', `Not uploaded: ${reason}. Your copy is kept.`);
  };
  const send = (path: SyncPath, local: LocalEntry, hash: string, remoteId?: string) => {
    const twin = remoteId ? undefined : onServer.get(hash);
    if (twin) actions.push({ type: 'copyRemote', path, fromRemoteId: twin.id, size: local.size, hash });
    else actions.push({ type: 'upload', path, size: local.size, hash, ...(remoteId ? { remoteId } : {}) });
  };
  const fetch = (path: SyncPath, entry: RemoteEntry) => {
    const from = onDisk.get(entry.hash!);
    if (from && from !== path) actions.push({ type: 'copyLocal', path, from, remoteId: entry.id, size: entry.size, hash: entry.hash! });
    else actions.push({ type: 'download', path, remoteId: entry.id, size: entry.size, hash: entry.hash! });
  };
  const conflict = (path: SyncPath, local: LocalEntry, hash: string, entry: RemoteEntry) => {
    const copyPath = copyName(path);
    actions.push({
      type: 'conflict',
      path,
      copyPath,
      remoteId: entry.id,
      size: entry.size,
      hash: entry.hash!,
      copySize: local.size,
      copyHash: hash,
    });
    report(path, 'conflict', `Changed on this device and on the server: this device's version is kept as "${copyPath}"`);
  };

  for (const item of live) {
    const { base, local, remote: there } = item;
    const path = targetOf(item);
    const viewer = roleOf(item, sides) === 'viewer';
    const movedAlike = !!base && movedOn('local', item, sides) && movedOn('remote', item, sides) && !moved.has(item);
    if ((base ?? local ?? there)!.kind === 'folder') {
      if (local && there && (!base || movedAlike)) actions.push({ type: 'agree', entry: agreed(path, local, there) });
      continue;
    }
    const hash = localHash(item);
    if (local && there) {
      const changedHere = !base || localChanged(item);
      const changedThere = !base || remoteChanged(item);
      const touched = !!base && (local.mtimeMs !== base.mtimeMs || local.inode !== base.inode);
      if (changedHere && changedThere && hash === there.hash) actions.push({ type: 'agree', entry: agreed(path, local, there) });
      else if (changedHere && viewer) readOnly(path, 'changed in a shared folder you can only view');
      else if (changedHere && changedThere) conflict(path, local, hash, there);
      else if (changedHere) send(path, local, hash, there.id);
      else if (changedThere) fetch(path, there);
      else if (touched || movedAlike) actions.push({ type: 'agree', entry: agreed(path, local, there) });
    } else if (local) {
      if (viewer) readOnly(path, 'added in a shared folder you can only view');
      else send(path, local, hash);
    } else {
      fetch(path, there!);
      if (base && viewer) report(path, 'read-only', 'Deleted on this device in a shared folder you can only view: brought back');
    }
  }
  return actions.sort((a, b) => PHASE[a.type]! - PHASE[b.type]! || comparePaths(pathOf(a), pathOf(b)));
}
