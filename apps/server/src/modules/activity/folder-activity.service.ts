import type { FolderActivityEntry } from '@cloudvault/contract/shares';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { ServiceLog } from '../../lib/service-log.ts';
import type { FolderActivityRepository } from './folder-activity.repository.ts';

/** A shared folder's activity shows this many newest entries. */
const ACTIVITY_ENTRIES = 100;

export type FolderAction = FolderActivityEntry['action'];

/** One thing done inside an owner's folder, as the module that did it knows it. */
export interface FolderActivityRecord {
  /** Whose folder it is: the owner, also when an editor or a link's visitor did it. */
  ownerId: string;
  /** The folder the item is in (for a move: the folder it went to). */
  folderId: string;
  /**
   * An account (`id`), or a link's visitor (`id` null, `name` what they typed). An account's
   * `name` may be left out: its first and last name are looked up.
   */
  actor: { id: string | null; name?: string };
  action: FolderAction;
  kind: 'file' | 'folder';
  name: string;
  /** A rename's old name, a move's old folder. */
  details?: Record<string, string>;
}

export interface FolderActivityDeps {
  activity: FolderActivityRepository;
  users: { byId(id: string): Promise<{ first_name: string; last_name: string } | undefined> };
  clock: Clock;
  log: ServiceLog;
}

/** Shown for a link's visitor who gave no name. */
const UNNAMED_VISITOR = 'Someone';

/**
 * Writes an entry of a folder's activity. Best effort, like the account's own log: a
 * failure is logged and never fails what it records. The folders module writes through
 * this alone, so it is built before folders, and the reading service after.
 */
export function folderActivityRecorder({ activity, users, clock, log }: FolderActivityDeps) {
  return async function record(entry: FolderActivityRecord): Promise<void> {
    try {
      const name = entry.actor.name ?? (entry.actor.id ? await accountName(users, entry.actor.id) : undefined);
      await activity.insert({
        id: newId(),
        owner_id: entry.ownerId,
        folder_id: entry.folderId,
        actor_id: entry.actor.id,
        actor_name: name?.trim() || UNNAMED_VISITOR,
        action: entry.action,
        item_kind: entry.kind,
        item_name: entry.name,
        details: JSON.stringify(entry.details ?? {}),
        created_at: clock.now().toISOString(),
      });
    } catch (error) {
      log.error({ err: error, ownerId: entry.ownerId, folderId: entry.folderId, action: entry.action }, 'folder activity not recorded');
    }
  };
}

async function accountName(users: FolderActivityDeps['users'], id: string): Promise<string | undefined> {
  const user = await users.byId(id);
  return user ? [user.first_name, user.last_name].filter(Boolean).join(' ') : undefined;
}

/**
 * A folder's activity (docs/decisions/0061-share-roles.md): who uploaded, made, renamed,
 * moved or deleted what inside it, read by its owner and the people it is shared with.
 */
export function createFolderActivityService(
  deps: FolderActivityDeps & {
    /** Whose folder the caller may read (folders' readableFolder; 404 otherwise): activity comes before folders. */
    readableFolder(userId: string, id: string): Promise<{ ownerId: string }>;
  },
) {
  return {
    record: folderActivityRecorder(deps),

    /** The newest entries of the folder's whole subtree; 404 to whoever cannot read the folder. */
    async list(userId: string, folderId: string): Promise<FolderActivityEntry[]> {
      const { ownerId } = await deps.readableFolder(userId, folderId);
      const rows = await deps.activity.listSubtree(ownerId, folderId, ACTIVITY_ENTRIES);
      return rows.map((row) => ({
        id: row.id,
        action: row.action as FolderAction,
        kind: row.item_kind,
        name: row.item_name,
        actor: { name: row.actor_name, isLinkVisitor: row.actor_id === null },
        folderId: row.folder_id,
        details: JSON.parse(row.details) as Record<string, string>,
        createdAt: row.created_at,
      }));
    },
  };
}

export type FolderActivityService = ReturnType<typeof createFolderActivityService>;
export type RecordFolderActivity = ReturnType<typeof folderActivityRecorder>;
