import type { Action, EntryKind, Role, SyncPath } from '../../model.ts';
import { isAtOrUnder, parentOf, pathKey, rebase } from '../paths.ts';
import type { World } from './world.ts';

interface Node {
  kind: EntryKind;
  hash?: string;
  id?: string;
  role?: Role;
}

/** Both sides after a plan is carried out, and where content went that neither side shows. */
export interface Outcome {
  local: Map<SyncPath, Node>;
  remote: Map<SyncPath, Node>;
  /** The local trash folder, the server's Trash and its versions: content kept out of sight. */
  kept: Set<string>;
}

/** A step the plan asked for that a real disk or server would refuse. */
class Refused extends Error {}

function refuse(action: Action, why: string): never {
  throw new Refused(`${action.type} ${JSON.stringify(action)}: ${why}`);
}

/**
 * Carries a plan out on in-memory copies of the disk and the server, refusing what they
 * would refuse: a step on something that is not there, a name already taken (the server
 * compares names NFC-lowercased, and so does a case-insensitive disk), a parent folder missing.
 */
export function simulate(world: World, actions: Action[], { caseInsensitiveDisk = false } = {}): Outcome {
  const local = new Map<SyncPath, Node>([...world.local].map(([path, entry]) => [path, { kind: entry.kind, hash: entry.hash }]));
  const remote = new Map<SyncPath, Node>(
    [...world.remote].map(([path, entry]) => [path, { kind: entry.kind, hash: entry.hash, id: entry.id, role: entry.role }]),
  );
  const kept = new Set<string>();
  let nextId = 0;

  const remoteAt = (path: SyncPath) => [...remote].find(([key]) => pathKey(key) === pathKey(path));
  const remoteById = (id: string) => [...remote].find(([, node]) => node.id === id);
  const needParent = (action: Action, side: Map<SyncPath, Node>, path: SyncPath, sideName: string) => {
    const parent = parentOf(path);
    if (parent !== '' && side.get(parent)?.kind !== 'folder' && !(side === remote && remoteAt(parent)?.[1].kind === 'folder')) {
      refuse(action, `no folder ${parent} ${sideName}`);
    }
  };
  const needFreeRemote = (action: Action, path: SyncPath, except?: SyncPath) => {
    const found = remoteAt(path);
    if (found && found[0] !== except) refuse(action, `${path} taken on the server`);
    needParent(action, remote, path, 'on the server');
  };
  const diskKey = caseInsensitiveDisk ? pathKey : (path: SyncPath) => path;
  const needFreeLocal = (action: Action, path: SyncPath, except?: SyncPath) => {
    const holder = [...local.keys()].find((key) => diskKey(key) === diskKey(path));
    if (holder !== undefined && holder !== except) refuse(action, `${path} taken on disk`);
    needParent(action, local, path, 'on disk');
  };
  const moveSubtree = (side: Map<SyncPath, Node>, from: SyncPath, to: SyncPath) => {
    for (const [path, node] of [...side].filter(([path]) => isAtOrUnder(path, from))) {
      side.delete(path);
      side.set(rebase(path, from, to), node);
    }
  };
  const trashSubtree = (side: Map<SyncPath, Node>, path: SyncPath) => {
    for (const [key, node] of [...side].filter(([key]) => isAtOrUnder(key, path))) {
      if (node.hash) kept.add(node.hash);
      side.delete(key);
    }
  };
  const localFile = (action: Action, path: SyncPath, hash: string) => {
    if (local.get(path)?.hash !== hash) refuse(action, `no file ${path} with that content on disk`);
  };

  // A viewer's share takes no change from this device: nothing written, moved or deleted in it.
  const viewOnly = (path: SyncPath) => {
    for (let at = path; at !== ''; at = parentOf(at)) if (remoteAt(at)?.[1].role === 'viewer') return true;
    return false;
  };
  const writesTo = (action: Action): SyncPath[] => {
    switch (action.type) {
      case 'upload':
      case 'copyRemote':
      case 'mkdirRemote':
      case 'deleteRemote':
        return [action.path];
      case 'moveRemote':
        return [action.from, action.to];
      case 'conflict':
        return [action.path, action.copyPath];
      default:
        return [];
    }
  };

  for (const action of actions) {
    if (writesTo(action).some(viewOnly)) refuse(action, 'in a share this device only views');
    switch (action.type) {
      case 'upload': {
        localFile(action, action.path, action.hash);
        if (action.remoteId) {
          const found = remoteById(action.remoteId);
          if (!found || pathKey(found[0]) !== pathKey(action.path)) refuse(action, 'the server file is not there');
          if (found[1].hash) kept.add(found[1].hash);
          found[1].hash = action.hash;
        } else {
          needFreeRemote(action, action.path);
          remote.set(action.path, { kind: 'file', hash: action.hash, id: `sim:${(nextId += 1)}` });
        }
        break;
      }
      case 'download': {
        if (remoteById(action.remoteId)?.[1].hash !== action.hash) refuse(action, 'no such content on the server');
        const there = local.get(action.path);
        if (there?.kind === 'folder') refuse(action, 'a folder is in the way');
        if (!there) needParent(action, local, action.path, 'on disk');
        local.set(action.path, { kind: 'file', hash: action.hash });
        break;
      }
      case 'copyRemote': {
        localFile(action, action.path, action.hash);
        if (remoteById(action.fromRemoteId)?.[1].hash !== action.hash) refuse(action, 'no such content on the server');
        needFreeRemote(action, action.path);
        remote.set(action.path, { kind: 'file', hash: action.hash, id: `sim:${(nextId += 1)}` });
        break;
      }
      case 'copyLocal': {
        localFile(action, action.from, action.hash);
        needFreeLocal(action, action.path);
        local.set(action.path, { kind: 'file', hash: action.hash });
        break;
      }
      case 'mkdirRemote':
        needFreeRemote(action, action.path);
        remote.set(action.path, { kind: 'folder', id: `sim:${(nextId += 1)}` });
        break;
      case 'mkdirLocal':
        needFreeLocal(action, action.path);
        local.set(action.path, { kind: 'folder' });
        break;
      case 'moveRemote': {
        if (remote.get(action.from)?.id !== action.remoteId) refuse(action, 'not on the server there');
        if (isAtOrUnder(action.to, action.from)) refuse(action, 'into itself');
        needFreeRemote(action, action.to, action.from);
        moveSubtree(remote, action.from, action.to);
        break;
      }
      case 'moveLocal': {
        if (!local.has(action.from)) refuse(action, 'not on disk there');
        if (action.to !== action.from && isAtOrUnder(action.to, action.from)) refuse(action, 'into itself');
        needFreeLocal(action, action.to, action.throughTemporaryName ? action.from : undefined);
        moveSubtree(local, action.from, action.to);
        break;
      }
      case 'deleteRemote':
        if (remote.get(action.path)?.id !== action.remoteId) refuse(action, 'not on the server there');
        trashSubtree(remote, action.path);
        break;
      case 'deleteLocal':
        if (!local.has(action.path)) refuse(action, 'not on disk there');
        trashSubtree(local, action.path);
        break;
      case 'conflict': {
        localFile(action, action.path, action.copyHash);
        if (remoteById(action.remoteId)?.[1].hash !== action.hash) refuse(action, 'no such content on the server');
        needFreeLocal(action, action.copyPath);
        needFreeRemote(action, action.copyPath);
        local.set(action.copyPath, { kind: 'file', hash: action.copyHash });
        remote.set(action.copyPath, { kind: 'file', hash: action.copyHash, id: `sim:${(nextId += 1)}` });
        local.set(action.path, { kind: 'file', hash: action.hash });
        break;
      }
      case 'agree':
      case 'forget':
      case 'readOnly':
        break;
    }
  }
  return { local, remote, kept };
}
