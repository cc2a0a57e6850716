/**
 * Everything a pair's passes share, opened once per command: its journal database, the
 * signed-in API client, the remote root (made when missing), and the two sides.
 */
import { stat, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { pairDatabasePath } from '../config/config-dir.ts';
import type { Credentials } from '../config/credentials.ts';
import { createJournal, type Journal } from '../journal/journal.ts';
import { openPairDatabase, type SqliteDatabase } from '../journal/open-database.ts';
import { detectCaseInsensitive } from '../local/case-sensitivity.ts';
import type { Platform } from '../local/name-rules.ts';
import { openLocalNames } from '../local/names.ts';
import type { LocalTree } from '../local/place.ts';
import { createApiClient, type ApiClient } from '../remote/api-client.ts';
import { ensureRemoteRoot, type RemoteRoot } from '../remote/remote-mirror.ts';
import { findFolder } from '../remote/remote-ops.ts';
import { createLocalSide } from './local-side.ts';
import type { LocalSide, RemoteSide } from './ports.ts';
import { createRemoteSide } from './remote-side.ts';

export interface PairOptions {
  configDir: string;
  credentials: Credentials;
  localDir: string;
  /** `/` or `/Work/Docs`. */
  remotePath: string;
  dryRun: boolean;
  now: () => Date;
}

export interface OpenPair {
  db: SqliteDatabase;
  journal: Journal;
  api: ApiClient;
  tree: LocalTree;
  /** Undefined on a dry run when the drive folder does not exist yet (nothing is made). */
  root: RemoteRoot | undefined;
  local: LocalSide;
  remote: RemoteSide;
  close(): void;
}

/** `Work//Docs/` -> `/Work/Docs`; `` -> `/`. */
export function normalizeRemotePath(remotePath: string): string {
  return `/${remotePath
    .split('/')
    .filter((name) => name !== '')
    .join('/')}`;
}

/** The drive folder without making it (a dry run changes nothing): undefined when a folder on the way is missing. */
async function findRemoteRoot(api: ApiClient, remotePath: string): Promise<RemoteRoot | undefined> {
  let folderId: string | null = null;
  for (const name of remotePath.split('/').filter((part) => part !== '')) {
    const folder = await findFolder(api, folderId, name);
    if (!folder) return undefined;
    folderId = folder.id;
  }
  return { path: remotePath, folderId };
}

/** A drive side with nothing on it: what a dry run plans against when the drive folder is still to be made. */
function emptyRemote(remote: RemoteSide): RemoteSide {
  return { ...remote, refresh: async () => ({ snapshot: () => new Map() }) };
}

/** Opens the pair `options` names; makes the local folder and the drive folder when missing (not on a dry run). */
export async function openPair(options: PairOptions): Promise<OpenPair> {
  const localDir = path.resolve(options.localDir);
  const localStats = await stat(localDir).catch(() => undefined);
  if (localStats && !localStats.isDirectory()) throw new Error(`${localDir} is not a folder`);
  if (!localStats && !options.dryRun) await mkdir(localDir, { recursive: true });
  const { credentials } = options;
  const db = openPairDatabase(
    pairDatabasePath(options.configDir, { server: credentials.server, email: credentials.email, localDir, remotePath: options.remotePath }),
  );
  try {
    const journal = createJournal(db);
    const api = createApiClient(credentials);
    const known = journal.pair();
    let root: RemoteRoot | undefined;
    if (
      known?.remotePath === options.remotePath &&
      known.remoteRootId !== undefined &&
      (known.remoteRootId !== null || options.remotePath === '/')
    ) {
      root = { path: options.remotePath, folderId: known.remoteRootId };
    } else if (options.dryRun) {
      root = await findRemoteRoot(api, options.remotePath);
    } else {
      root = await ensureRemoteRoot(api, options.remotePath);
      journal.setPair({
        localDir,
        remotePath: options.remotePath,
        server: credentials.server,
        email: credentials.email,
        remoteRootId: root.folderId,
      });
    }
    const platform = (['darwin', 'win32'].includes(process.platform) ? process.platform : 'linux') as Platform;
    const names = openLocalNames(localDir, db, platform);
    const caseInsensitive = localStats || !options.dryRun ? await detectCaseInsensitive(localDir) : platform !== 'linux';
    const tree: LocalTree = { root: localDir, names, caseInsensitive };
    const local = createLocalSide(tree, { dryRun: options.dryRun, now: options.now });
    const remote = createRemoteSide({ api, db, root: root ?? { path: options.remotePath, folderId: null }, tree, journal });
    return { db, journal, api, tree, root, local, remote: root ? remote : emptyRemote(remote), close: () => db.close() };
  } catch (error) {
    db.close();
    throw error;
  }
}
