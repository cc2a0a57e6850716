/**
 * The remote mirror: the drive's tree as the client last heard it, kept in the pair's journal
 * database so that a pass over an unchanged drive costs one small change-feed request instead
 * of a listing. Filled by a full listing (GET /api/sync/tree) the first time, or when the feed
 * cursor expired, then kept up by applying the change feed.
 *
 * Tables (this module's own): `remote_items` one row per item; `remote_shares` one row per
 * share made with the caller (its role and how its owner is named); `remote_state` the feed
 * cursor and which remote root the mirror was filled for.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { EntryKind, RemoteEntry, Role, Snapshot, SyncPath } from '../model.ts';
import type { ApiClient } from './api-client.ts';
import { jsonLines } from './json-lines.ts';
import { isRemoteError, RemoteError } from './remote-error.ts';
import { findFolder, makeFolder } from './remote-ops.ts';
import { isSharedWithMe, nameSharedRoots, OWN_SHARED_WITH_ME, SHARED_WITH_ME, type SharedRoot } from './shared-names.ts';

type Database = BetterSqlite3.Database;

/** The drive folder a pair syncs with (`--remote PATH`): `/` is the caller's root (folderId null). */
export interface RemoteRoot {
  /** `/` or `/Work/Docs`: slash-separated, as given (names compared as the server compares them). */
  path: string;
  folderId: string | null;
}

/** The id the virtual `Shared with me` folder carries in a snapshot: nothing can be made in it or done to it. */
export const SHARED_WITH_ME_ID = 'virtual:shared-with-me';

/** One change of GET /api/changes (docs/api.md#change-feed): the item's state after it. */
export interface FeedChange {
  op: 'created' | 'updated' | 'moved' | 'deleted' | 'restored';
  kind: EntryKind;
  id: string;
  parentId: string | null;
  name: string;
  shareId?: string;
  size?: number;
  contentHash?: string;
}

/** One page of the change feed. */
export interface FeedPage {
  changes: FeedChange[];
  cursor: string;
  hasMore: boolean;
}

/** What refreshMirror did: a whole listing, or how many feed changes it applied. */
export interface RefreshOutcome {
  fullListing: boolean;
  changes: number;
  /** The feed position the mirror is now at (for the feed follower). */
  cursor: string;
}

interface ItemRow {
  id: string;
  parent_id: string | null;
  name: string;
  kind: EntryKind;
  size: number;
  hash: string | null;
  share_id: string | null;
}

/** Makes this module's tables in the pair's database (idempotent). */
export function createMirrorTables(db: Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS remote_items (
      id TEXT PRIMARY KEY, parent_id TEXT, name TEXT NOT NULL, kind TEXT NOT NULL,
      size INTEGER NOT NULL DEFAULT 0, hash TEXT, share_id TEXT, role TEXT NOT NULL DEFAULT 'owner');
    CREATE INDEX IF NOT EXISTS remote_items_by_parent ON remote_items (parent_id);
    CREATE TABLE IF NOT EXISTS remote_shares (
      share_id TEXT PRIMARY KEY, root_id TEXT NOT NULL, kind TEXT NOT NULL, role TEXT NOT NULL, owner_label TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS remote_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  `);
}

const rootKey = (root: RemoteRoot) => root.folderId ?? '/';

function readState(db: Database, key: string): string | undefined {
  const row = db.prepare('SELECT value FROM remote_state WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value;
}

function writeState(db: Database, key: string, value: string): void {
  db.prepare('INSERT INTO remote_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
}

/** The feed cursor the mirror is at, if it was ever filled. */
export function mirrorCursor(db: Database): string | undefined {
  createMirrorTables(db);
  return readState(db, 'cursor');
}

/**
 * Brings the mirror up to date with the drive: a full listing the first time (for this remote
 * root) or after the cursor expired (410 CURSOR_EXPIRED), else the change feed's pages from
 * the stored cursor until `hasMore` is false: one small request when nothing changed.
 */
export async function refreshMirror(db: Database, api: ApiClient, root: RemoteRoot): Promise<RefreshOutcome> {
  createMirrorTables(db);
  const cursor = readState(db, 'cursor');
  if (cursor === undefined || readState(db, 'root') !== rootKey(root)) return listEverything(db, api, root);
  try {
    return await followFeed(db, api, root, cursor);
  } catch (error) {
    if (isRemoteError(error, 'CURSOR_EXPIRED')) return listEverything(db, api, root);
    throw error;
  }
}

/** A tree line of GET /api/sync/tree. */
interface TreeLine {
  kind?: EntryKind;
  id?: string;
  parentId?: string | null;
  name?: string;
  size?: number;
  contentHash?: string;
  cursor?: string;
  end?: boolean;
  count?: number;
}

/**
 * Every live item under `folderId` (absent: the caller's root) and the feed cursor taken before
 * the read. A stream without its end line was cut: an error, never a partial tree.
 */
async function listTree(
  api: ApiClient,
  folderId: string | undefined,
  shareId: string | null,
): Promise<{ cursor: string; items: ItemRow[] }> {
  const response = await api.request({ path: '/api/sync/tree', query: { folderId } });
  let cursor: string | undefined;
  const items: ItemRow[] = [];
  for await (const value of jsonLines(response.body)) {
    const line = value as TreeLine;
    if (line.cursor !== undefined) cursor = line.cursor;
    else if (line.end === true) {
      if (cursor === undefined || line.count !== items.length) break;
      return { cursor, items };
    } else if (line.id !== undefined && line.kind !== undefined && line.name !== undefined) {
      items.push({
        id: line.id,
        parent_id: line.parentId ?? null,
        name: line.name,
        kind: line.kind,
        size: line.kind === 'file' ? (line.size ?? 0) : 0,
        hash: line.contentHash ?? null,
        share_id: shareId,
      });
    }
  }
  throw new RemoteError(0, 'LISTING_CUT', 'The tree listing from the server broke off; it will be read again');
}

/** A share row of GET /api/shared-with-me. */
interface SharedWithMeItem {
  id: string;
  name?: string;
  originalName?: string;
  size?: number;
  contentHash?: string;
  shareId: string;
  role?: Role;
  owner: { firstName: string; lastName?: string };
}

interface ListedShare {
  root: SharedRoot;
  role: Role;
  row: ItemRow;
}

/** The folders and files shared with the caller, with their roles (viewer when the server names none). */
async function listShares(api: ApiClient): Promise<ListedShare[]> {
  const { folders, files } = await api.json<{ folders: SharedWithMeItem[]; files?: SharedWithMeItem[] }>({ path: '/api/shared-with-me' });
  const shares = (items: SharedWithMeItem[], kind: EntryKind): ListedShare[] =>
    items.map((item) => {
      const name = (kind === 'folder' ? item.name : item.originalName) ?? item.name ?? '';
      return {
        root: {
          kind,
          id: item.id,
          name,
          shareId: item.shareId,
          ownerLabel: [item.owner.firstName, item.owner.lastName].filter(Boolean).join(' '),
        },
        role: item.role ?? 'viewer',
        row: {
          id: item.id,
          parent_id: null,
          name,
          kind,
          size: kind === 'file' ? (item.size ?? 0) : 0,
          hash: item.contentHash ?? null,
          share_id: item.shareId,
        },
      };
    });
  return [...shares(folders, 'folder'), ...shares(files ?? [], 'file')];
}

const insertItem = (db: Database, row: ItemRow) =>
  db
    .prepare(
      `INSERT INTO remote_items (id, parent_id, name, kind, size, hash, share_id) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET parent_id = excluded.parent_id, name = excluded.name, kind = excluded.kind,
         size = excluded.size, hash = excluded.hash, share_id = excluded.share_id`,
    )
    .run(row.id, row.parent_id, row.name, row.kind, row.size, row.hash, row.share_id);

const insertShare = (db: Database, share: ListedShare) =>
  db
    .prepare(
      `INSERT INTO remote_shares (share_id, root_id, kind, role, owner_label) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (share_id) DO UPDATE SET root_id = excluded.root_id, kind = excluded.kind, role = excluded.role,
         owner_label = excluded.owner_label`,
    )
    .run(share.root.shareId, share.root.id, share.root.kind, share.role, share.root.ownerLabel);

/** Removes an item and everything under it from the mirror. */
function removeSubtree(db: Database, id: string): void {
  db.prepare(
    `WITH RECURSIVE under(id) AS (SELECT ? UNION SELECT r.id FROM remote_items r JOIN under u ON r.parent_id = u.id)
     DELETE FROM remote_items WHERE id IN (SELECT id FROM under)`,
  ).run(id);
  db.prepare('DELETE FROM remote_shares WHERE root_id = ?').run(id);
}

/**
 * Replaces the mirror with a full listing: the remote root's tree, and at `/` the shares with
 * one listing per shared folder. The cursor is the one taken before the first read, so changes
 * made during the listing are applied again by the next refresh (applying is idempotent).
 */
async function listEverything(db: Database, api: ApiClient, root: RemoteRoot): Promise<RefreshOutcome> {
  const own = await listTree(api, root.folderId ?? undefined, null);
  const shares = root.folderId === null ? await listShares(api) : [];
  const shared: ItemRow[] = [];
  for (const share of shares) {
    shared.push(share.row);
    if (share.root.kind === 'folder') {
      const listed = await listSubtree(api, share.root.id, share.root.shareId);
      if (listed !== undefined) shared.push(...listed.items);
    }
  }
  db.transaction(() => {
    db.exec('DELETE FROM remote_items; DELETE FROM remote_shares;');
    for (const row of [...own.items, ...shared]) insertItem(db, row);
    for (const share of shares) insertShare(db, share);
    writeState(db, 'cursor', own.cursor);
    writeState(db, 'root', rootKey(root));
  })();
  return { fullListing: true, changes: 0, cursor: own.cursor };
}

/** A folder's subtree, or undefined when it is no longer readable (in Trash or revoked meanwhile: 404). */
async function listSubtree(api: ApiClient, folderId: string, shareId: string | null) {
  try {
    return await listTree(api, folderId, shareId);
  } catch (error) {
    if (error instanceof RemoteError && (error.status === 404 || error.status === 403)) return undefined;
    throw error;
  }
}

const isKnown = (db: Database, id: string) => db.prepare('SELECT 1 FROM remote_items WHERE id = ?').get(id) !== undefined;

/**
 * Whether applying `change` needs the item's subtree listed: a restored folder (what came back
 * with it is not in the feed), a folder shared with the caller or moved into a share (it comes
 * as one `created`), or a folder the mirror never knew moved under one it does.
 */
function needsSubtree(db: Database, root: RemoteRoot, change: FeedChange): boolean {
  if (change.kind !== 'folder') return false;
  if (change.op === 'restored') return true;
  if (change.op === 'created') return change.shareId !== undefined && root.folderId === null;
  if (change.op === 'moved' || change.op === 'updated') {
    const parentKnown =
      change.parentId === null ? root.folderId === null : change.parentId === root.folderId || isKnown(db, change.parentId);
    return parentKnown && !isKnown(db, change.id);
  }
  return false;
}

/** Whether `change` makes or ends a share with the caller (the top of a share has no parent as the member sees it). */
const touchesShareRoot = (change: FeedChange) => change.shareId !== undefined && change.parentId === null;

/** Whether a folder is in the caller's tree now (not in Trash, not gone). */
async function isLive(api: ApiClient, folderId: string): Promise<boolean> {
  const response = await api.request({ path: `/api/user/folders/${encodeURIComponent(folderId)}/path`, accept: [404] });
  await response.body?.cancel();
  return response.ok;
}

/**
 * Applies the feed's pages from `cursor` until `hasMore` is false, each page in one transaction
 * with its cursor, so a crash never leaves a page half applied.
 */
async function followFeed(db: Database, api: ApiClient, root: RemoteRoot, cursor: string): Promise<RefreshOutcome> {
  let applied = 0;
  for (;;) {
    const page = await api.json<FeedPage>({ path: '/api/changes', query: { cursor, limit: 1000 } });
    if (
      root.folderId !== null &&
      page.changes.some((change) => change.op === 'deleted' && change.id === root.folderId) &&
      !(await isLive(api, root.folderId))
    ) {
      // Not a reason to empty the local folder: the person decides (restore it, or sync elsewhere).
      throw new RemoteError(
        404,
        'REMOTE_ROOT_GONE',
        `The drive folder ${root.path} was deleted (it is in Trash); nothing was changed locally`,
      );
    }
    const subtrees = new Map<string, ItemRow[]>();
    for (const change of page.changes) {
      if (change.op !== 'deleted' && needsSubtree(db, root, change) && !subtrees.has(change.id)) {
        subtrees.set(change.id, (await listSubtree(api, change.id, change.shareId ?? null))?.items ?? []);
      }
    }
    const shares = root.folderId === null && page.changes.some(touchesShareRoot) ? await listShares(api) : undefined;
    db.transaction(() => {
      for (const change of page.changes) applyChange(db, change, subtrees.get(change.id));
      if (shares !== undefined) {
        db.exec('DELETE FROM remote_shares');
        for (const share of shares) if (isKnown(db, share.root.id)) insertShare(db, share);
      }
      writeState(db, 'cursor', page.cursor);
    })();
    applied += page.changes.length;
    cursor = page.cursor;
    if (!page.hasMore) return { fullListing: false, changes: applied, cursor };
  }
}

/** One change into the mirror: upsert the item's new state (and a listed subtree), or remove a deleted subtree. */
function applyChange(db: Database, change: FeedChange, subtree: ItemRow[] | undefined): void {
  if (change.op === 'deleted') {
    removeSubtree(db, change.id);
    return;
  }
  insertItem(db, {
    id: change.id,
    parent_id: change.parentId,
    name: change.name,
    kind: change.kind,
    size: change.kind === 'file' ? (change.size ?? 0) : 0,
    hash: change.contentHash ?? null,
    share_id: change.shareId ?? null,
  });
  for (const row of subtree ?? []) insertItem(db, row);
}

interface ShareRow {
  share_id: string;
  root_id: string;
  kind: EntryKind;
  role: Role;
  owner_label: string;
}

/**
 * The drive as sync paths under the remote root, from the mirror alone (no request). At `/`:
 * the caller's own tree (an own top-level "Shared with me" shows as "Shared with me (My Files)")
 * and, when anything is shared with the caller, the virtual `Shared with me` folder holding
 * each share under its WebDAV name, with the share's role on everything inside it.
 */
export function remoteSnapshot(db: Database, root: RemoteRoot): Snapshot<RemoteEntry> {
  createMirrorTables(db);
  const rows = db.prepare('SELECT id, parent_id, name, kind, size, hash, share_id FROM remote_items').all() as ItemRow[];
  const children = new Map<string | null, ItemRow[]>();
  for (const row of rows) {
    const siblings = children.get(row.parent_id) ?? [];
    siblings.push(row);
    children.set(row.parent_id, siblings);
  }
  const shares = db.prepare('SELECT share_id, root_id, kind, role, owner_label FROM remote_shares').all() as ShareRow[];
  const roleOf = new Map(shares.map((share) => [share.share_id, share.role]));
  const snapshot: Snapshot<RemoteEntry> = new Map();
  const visited = new Set<string>();

  const add = (row: ItemRow, path: SyncPath, inheritedRole: Role) => {
    if (visited.has(row.id)) return;
    visited.add(row.id);
    const role = (row.share_id !== null ? roleOf.get(row.share_id) : undefined) ?? inheritedRole;
    snapshot.set(path, { path, kind: row.kind, id: row.id, size: row.size, hash: row.hash ?? undefined, role });
    if (row.kind === 'folder') for (const child of children.get(row.id) ?? []) add(child, `${path}/${child.name}`, role);
  };

  if (root.folderId !== null) {
    for (const child of children.get(root.folderId) ?? []) add(child, child.name, 'owner');
    return snapshot;
  }
  for (const row of children.get(null) ?? []) {
    if (row.share_id === null) add(row, isSharedWithMe(row.name) ? OWN_SHARED_WITH_ME : row.name, 'owner');
  }
  const byId = new Map(rows.map((row) => [row.id, row]));
  const sharedRoots: SharedRoot[] = [];
  for (const share of shares) {
    const row = byId.get(share.root_id);
    if (row !== undefined && row.parent_id === null) {
      sharedRoots.push({ kind: row.kind, id: row.id, name: row.name, shareId: share.share_id, ownerLabel: share.owner_label });
    }
  }
  if (sharedRoots.length === 0) return snapshot;
  snapshot.set(SHARED_WITH_ME, { path: SHARED_WITH_ME, kind: 'folder', id: SHARED_WITH_ME_ID, size: 0, role: 'viewer' });
  for (const [id, name] of nameSharedRoots(sharedRoots)) add(byId.get(id) as ItemRow, `${SHARED_WITH_ME}/${name}`, 'viewer');
  return snapshot;
}

/**
 * The server folder id that holds the items at sync path `dir` ('' = the remote root), or
 * undefined when nothing can be put there (the virtual `Shared with me`, or no such folder).
 */
export function folderIdAt(snapshot: Snapshot<RemoteEntry>, root: RemoteRoot, dir: SyncPath): string | null | undefined {
  if (dir === '') return root.folderId;
  const entry = snapshot.get(dir);
  if (entry === undefined || entry.kind !== 'folder' || entry.id === SHARED_WITH_ME_ID) return undefined;
  return entry.id;
}

/**
 * Resolves `--remote PATH` (`/` or `/Work/Docs`) to its folder, making the folders that are
 * missing, one level at a time (a folder made meanwhile by someone else is found and used).
 */
export async function ensureRemoteRoot(api: ApiClient, path: string): Promise<RemoteRoot> {
  const names = path.split('/').filter((name) => name !== '');
  let folderId: string | null = null;
  for (const name of names) {
    const existing = await findFolder(api, folderId, name);
    folderId = existing?.id ?? (await makeFolder(api, folderId, name));
  }
  return { path: `/${names.join('/')}`, folderId };
}
