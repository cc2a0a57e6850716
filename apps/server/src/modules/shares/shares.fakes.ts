import { DEFAULT_SETTINGS } from '@cloudvault/contract/settings-defaults';
import type { Settings } from '@cloudvault/contract/settings';
import type { FilesTable, FoldersTable } from '../../db/schema.ts';
import type { FailureLimiter } from '../../lib/failure-limiter.ts';
import type { PlanEntry } from '../plans/plans.catalogue.ts';
import type { ShareUser } from './share-owners.ts';
import type { ShareRow, SharesRepository } from './shares.repository.ts';

/*
 * In-memory stand-ins for the shares module's narrow dependencies, shared by its unit tests.
 * They keep what the module relies on (live items only, every query scoped to its owner, a
 * revoked share found by no token) and nothing of SQL: shares.test.ts proves the queries.
 */

const plan = (id: string, name: string, passwordProtectedLinks: boolean, maxShareExpiryHours: number) =>
  ({
    id,
    name,
    capabilities: { passwordProtectedLinks, maxShareExpiryHours, versioning: false, analytics: false },
  }) as unknown as PlanEntry;

/** As config/plans.json has them: Free links last a day and have no password; Pro's last 30 days. */
export const FREE = plan('FREE', 'Free', false, 24);
export const PRO = plan('PRO', 'Pro', true, 720);

/** A clock the test moves. */
export function fakeClock(start = '2026-12-01T10:00:00.000Z') {
  let time = Date.parse(start);
  return {
    now: () => new Date(time),
    advance(ms: number) {
      time += ms;
    },
  };
}

/** Settings as a new account has them (private profile, no analytics, English), with these changes. */
export function settingsWith(changes: { privacy?: Partial<Settings['privacy']>; language?: Settings['appearance']['language'] } = {}) {
  return {
    ...DEFAULT_SETTINGS,
    privacy: { ...DEFAULT_SETTINGS.privacy, ...changes.privacy },
    appearance: { ...DEFAULT_SETTINGS.appearance, ...(changes.language ? { language: changes.language } : {}) },
  } satisfies Settings;
}

/** Accounts by id and e-mail, each with its settings (new-account defaults unless given). */
export function fakeAccounts() {
  const users: ShareUser[] = [];
  const settings = new Map<string, Settings>();
  const suspended = new Set<string>();
  return {
    add(user: Partial<ShareUser> & { id: string }, userSettings: Settings = settingsWith()): ShareUser {
      const full: ShareUser = {
        email: `${user.id}@example.com`,
        first_name: `${user.id}-first`,
        last_name: `${user.id}-last`,
        email_verified_at: '2026-11-01T00:00:00.000Z',
        ...user,
      };
      users.push(full);
      settings.set(user.id, userSettings);
      return full;
    },
    setSettings: (userId: string, userSettings: Settings) => void settings.set(userId, userSettings),
    suspend: (userId: string) => void suspended.add(userId),
    users: {
      byId: async (id: string) => users.find((user) => user.id === id),
      byEmail: async (email: string) => users.find((user) => user.email.toLowerCase() === email.toLowerCase()),
    },
    settingsOf: async (userId: string) => settings.get(userId) ?? settingsWith(),
    ownerActive: async (userId: string) => !suspended.has(userId),
  };
}

const STAMP = '2026-11-01T00:00:00.000Z';

/** Owners' folders and files; an item in Trash is not live. */
export function fakeDrive() {
  const folders: FoldersTable[] = [];
  const files: FilesTable[] = [];
  const live = <Row extends { user_id: string; id: string; deleted_at: string | null }>(rows: Row[], userId: string, id: string) =>
    rows.find((row) => row.id === id && row.user_id === userId && row.deleted_at === null);
  const pathTo = async (userId: string, id: string): Promise<FoldersTable[]> => {
    const path: FoldersTable[] = [];
    for (let folder = live(folders, userId, id); folder; folder = folder.parent_id ? live(folders, userId, folder.parent_id) : undefined)
      path.unshift(folder);
    return path;
  };
  return {
    folder(userId: string, id: string, parentId: string | null = null): FoldersTable {
      const row = {
        id,
        user_id: userId,
        parent_id: parentId,
        name: id,
        created_at: STAMP,
        updated_at: STAMP,
        deleted_at: null,
        trashed_root: 0,
      };
      folders.push(row);
      return row;
    },
    file(userId: string, id: string, folderId: string | null = null, extra: Partial<FilesTable> = {}): FilesTable {
      const row: FilesTable = {
        id,
        user_id: userId,
        folder_id: folderId,
        name: `${id}.txt`,
        mimetype: 'text/plain',
        category: 'document',
        size: 11,
        sha256: 'ab'.repeat(32),
        crc32: 0,
        blob_key: `blob-${id}`,
        created_at: STAMP,
        updated_at: STAMP,
        deleted_at: null,
        trashed_root: 0,
        ...extra,
      };
      files.push(row);
      return row;
    },
    trash(id: string) {
      for (const row of [...folders, ...files]) if (row.id === id) row.deleted_at = STAMP;
    },
    folders: {
      findLive: async (userId: string, id: string) => live(folders, userId, id),
      listLive: async (userId: string, parentId: string | null) =>
        folders.filter((row) => row.user_id === userId && row.parent_id === parentId && row.deleted_at === null),
      pathTo,
    },
    files: {
      findLive: async (userId: string, id: string) => live(files, userId, id),
      listLive: async (userId: string, folderId: string | null) =>
        files.filter((row) => row.user_id === userId && row.folder_id === folderId && row.deleted_at === null),
    },
    /** The live item a share is of, whoever owns it (the repository's join). */
    itemOf: (row: ShareRow) =>
      [...folders, ...files].find((item) => item.id === (row.file_id ?? row.folder_id) && item.deleted_at === null),
  };
}

/** The shares table: the repository's contracts over an array, joined to the drive's items and the accounts. */
export function fakeSharesRepository(drive: ReturnType<typeof fakeDrive>, accounts: ReturnType<typeof fakeAccounts>) {
  const rows: ShareRow[] = [];
  const itemName = (row: ShareRow) => drive.itemOf(row)?.name;
  const active = (row: ShareRow) => row.revoked_at === null;
  const repository: SharesRepository = {
    insert: async (row) => void rows.push({ ...row }),
    findByTokenHash: async (tokenHash) => rows.find((row) => row.token_hash === tokenHash && active(row)),
    findPrivate: async (userId, item, email) =>
      rows.find(
        (row) =>
          row.user_id === userId &&
          row.kind === 'private' &&
          (item.type === 'file' ? row.file_id : row.folder_id) === item.id &&
          row.email === email &&
          active(row),
      ),
    async listForOwnerPage(userId, after, limit) {
      return rows
        .filter((row) => row.user_id === userId && active(row) && itemName(row) !== undefined)
        .sort((a, b) => b.created_at.localeCompare(a.created_at) || a.id.localeCompare(b.id))
        .filter((row) => !after || row.created_at < after.createdAt || (row.created_at === after.createdAt && row.id > after.id))
        .slice(0, limit)
        .map((row) => ({ ...row, item_name: itemName(row) as string }));
    },
    async revoke(userId, id, now) {
      const row = rows.find((candidate) => candidate.id === id && candidate.user_id === userId && active(candidate));
      if (row) row.revoked_at = now;
      return row !== undefined;
    },
    async countDownload(id) {
      const row = rows.find((candidate) => candidate.id === id);
      if (!row || (row.download_limit != null && row.download_count >= row.download_limit)) return false;
      row.download_count += 1;
      return true;
    },
    async findForOwner(userId, id) {
      const row = rows.find((candidate) => candidate.id === id && candidate.user_id === userId && active(candidate));
      const name = row && itemName(row);
      return row && name !== undefined ? { ...row, item_name: name } : undefined;
    },
    async update(userId, id, changes) {
      const row = rows.find((candidate) => candidate.id === id && candidate.user_id === userId && active(candidate));
      if (row) Object.assign(row, changes);
      return row !== undefined;
    },
    async sharedWithEmail(email) {
      const shared = [];
      for (const row of rows.filter(
        (candidate) => candidate.kind === 'private' && candidate.folder_id !== null && candidate.email === email && active(candidate),
      )) {
        const folder = drive.itemOf(row);
        const owner = await accounts.users.byId(row.user_id);
        if (!folder || !owner) continue;
        shared.push({
          share_id: row.id,
          share_role: row.role,
          may_reshare: row.may_reshare,
          id: folder.id,
          name: folder.name,
          created_at: folder.created_at,
          updated_at: folder.updated_at,
          owner_id: owner.id,
          first_name: owner.first_name,
          last_name: owner.last_name,
        });
      }
      return shared.sort((a, b) => a.name.localeCompare(b.name));
    },
    async filesSharedWithEmail(email) {
      const shared = [];
      for (const row of rows.filter((candidate) => candidate.kind === 'private' && candidate.email === email && active(candidate))) {
        const file = row.file_id === null ? undefined : drive.itemOf(row);
        const owner = await accounts.users.byId(row.user_id);
        if (!file || !owner || !('sha256' in file)) continue;
        const { id, name, mimetype, size, folder_id, created_at, updated_at, sha256 } = file;
        const listed = { id, name, mimetype, size, folder_id, created_at, updated_at, sha256 };
        shared.push({
          ...listed,
          share_id: row.id,
          share_role: row.role,
          may_reshare: row.may_reshare,
          owner_id: owner.id,
          first_name: owner.first_name,
          last_name: owner.last_name,
        });
      }
      return shared.sort((a, b) => a.name.localeCompare(b.name));
    },
    fileShareWith: async (ownerId, email, fileId) =>
      rows.find((row) => row.user_id === ownerId && row.kind === 'private' && row.email === email && row.file_id === fileId && active(row)),
    privateSharesAmong: async (ownerId, email, folderIds) =>
      rows
        .filter((row) => row.user_id === ownerId && row.kind === 'private' && row.email === email && active(row))
        .filter((row) => row.folder_id !== null && folderIds.includes(row.folder_id))
        .map((row) => ({ ...row, folder_id: row.folder_id as string })),
    async counts(userId, now) {
      const own = rows.filter((row) => row.user_id === userId);
      return {
        shared: own.filter((row) => active(row) && (row.expires_at === null || row.expires_at > now)).length,
        downloads: own.reduce((sum, row) => sum + row.download_count, 0),
      };
    },
  };
  return { rows, repository };
}

/** A limit of `max` attempts per key; the test reads what is counted. */
export function fakeLimiter(max: number) {
  const counted = new Map<string, number>();
  const limiter: FailureLimiter = {
    async attempt(key) {
      const count = counted.get(key) ?? 0;
      if (count >= max) return 60;
      counted.set(key, count + 1);
      return 0;
    },
    forgive: async (key) => void counted.set(key, Math.max(0, (counted.get(key) ?? 0) - 1)),
    reset: async (key) => void counted.delete(key),
  };
  return { limiter, counted };
}

/** A password's hash is the password marked as hashed: a test sees that no plain password is stored. */
export const fakePasswords = {
  hash: async (password: string) => `hashed:${password}`,
  verify: async (hash: string, password: string) => hash === `hashed:${password}`,
};
