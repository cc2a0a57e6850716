import type { FileItem } from '@cloudvault/contract/files';
import type { Folder } from '@cloudvault/contract/folders';
import type { RestoreBody, TrashResponse } from '@cloudvault/contract/trash';
import { inPages } from '../../db/pages.ts';
import type { FilesTable, FoldersTable } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { notFound } from '../../lib/errors.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { FilesService } from '../files/files.service.ts';
import { presentFile } from '../files/files.presenter.ts';
import type { FoldersService } from '../folders/folders.service.ts';
import { firstFreeName } from '../../lib/unique-name.ts';
import { presentFolder } from '../folders/folders.presenter.ts';
import type { FolderActivityRecord } from '../activity/folder-activity.service.ts';
import { shareRootLocked } from '../folders/folders.service.ts';
import type { DeleterName, RestoreOutcome, TrashPageKey, TrashRepository } from './trash.repository.ts';

/** How long a user's Trash keeps items: the Storage settings autoDelete / deleteAfterDays. */
export interface Retention {
  autoDelete: boolean;
  deleteAfterDays: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows per query of the Trash listing. */
const LIST_PAGE = 500;

/** Where the Trash listing's next page starts: after this row, newest first. */
const pageKey = (row: { id: string; deleted_at: string | null } | null): TrashPageKey | null =>
  row && { deletedAt: row.deleted_at as string, id: row.id };

/**
 * Tries the item's name, then "name (1)"…, until a restore takes; answers the name and the
 * folder it landed in. An item purged since it was looked up is a 404.
 */
async function restoreUnderFreeName(
  name: string,
  attempt: (candidate: string) => Promise<RestoreOutcome>,
): Promise<{ name: string; placedIn: string | null }> {
  let placedIn: string | null = null;
  const freeName = await firstFreeName(name, async (candidate) => {
    const outcome = await attempt(candidate);
    if (outcome === 'not-in-trash') throw notFound('Not found in Trash', 'NOT_IN_TRASH');
    if (outcome === 'name-taken') return false;
    placedIn = outcome.placedIn;
    return true;
  });
  return { name: freeName, placedIn };
}

export interface TrashServiceDeps {
  trash: TrashRepository;
  retentionOf(userId: string): Promise<Retention>;
  /** Users whose Trash empties itself, with their retention. */
  usersWithAutoDelete(): Promise<Array<{ userId: string; deleteAfterDays: number }>>;
  /**
   * Deletes the bytes of blobs the repository queued with the rows' deletion (the
   * storage-upkeep service's); what fails stays queued for the blob-deletion job.
   */
  deleteQueuedBlobs(keys: readonly string[]): Promise<unknown>;
  clock: Clock;
  /** What is put in Trash, by name, for the account's activity log. */
  files: Pick<FilesService, 'findLive' | 'writableFile'>;
  folders: Pick<FoldersService, 'findLive' | 'changeableFolder'>;
  activity: Pick<ActivityService, 'record'>;
  /** A deletion inside a folder goes into that folder's activity (best effort). */
  recordFolderActivity(entry: FolderActivityRecord): Promise<void>;
}

/** Who put an item in the owner's Trash, when an editor did (docs/decisions/0061-share-roles.md). */
function deletedBy(row: DeleterName) {
  if (row.deleter_first_name === null) return {};
  return { deletedBy: { firstName: row.deleter_first_name, ...(row.deleter_last_name ? { lastName: row.deleter_last_name } : {}) } };
}

/** Delete moves to Trash; restore brings back; empty frees the bytes (docs/product.md#trash). */
export function createTrashService({
  trash,
  deleteQueuedBlobs,
  clock,
  retentionOf,
  usersWithAutoDelete,
  files,
  folders,
  activity,
  recordFolderActivity,
}: TrashServiceDeps) {
  /** A page of rows, then their bytes, until none is left: memory holds one page whatever the Trash holds. */
  async function purge(userId: string, before?: string): Promise<number> {
    let purged = 0;
    let after = '';
    for (;;) {
      const page = await trash.purgePage(userId, before, after, clock.now().toISOString());
      await deleteQueuedBlobs(page.blobKeys);
      purged += page.blobKeys.length;
      if (page.next === null) return purged;
      after = page.next;
    }
  }

  return {
    /**
     * Puts the caller's file in their Trash, or (an editor) one of the owner's inside a
     * folder shared with them in the owner's Trash, saying who deleted it. Restoring stays
     * the owner's.
     */
    async trashFile(userId: string, id: string): Promise<void> {
      // Its name before it goes: the log still names it once it is purged.
      const { file, ownerId, sharedAlone } = await files.writableFile(userId, id);
      if (sharedAlone) throw shareRootLocked('file');
      const deleter = ownerId === userId ? null : userId;
      if (!(await trash.trashFile(ownerId, id, clock.now().toISOString(), deleter))) throw notFound('File not found', 'FILE_NOT_FOUND');
      await activity.record(userId, 'delete', { item: 'file', name: file.name });
      if (file.folder_id !== null)
        await recordFolderActivity({
          ownerId,
          folderId: file.folder_id,
          actor: { id: userId },
          action: 'deleted',
          kind: 'file',
          name: file.name,
        });
    },

    /** Puts a folder in Trash as trashFile does a file; a folder shared with an editor is its owner's to delete. */
    async trashFolder(userId: string, id: string): Promise<void> {
      const folder = await folders.changeableFolder(userId, id);
      const deleter = folder.ownerId === userId ? null : userId;
      if (!(await trash.trashFolder(folder.ownerId, id, clock.now().toISOString(), deleter))) {
        throw notFound('Folder not found', 'FOLDER_NOT_FOUND');
      }
      await activity.record(userId, 'delete', { item: 'folder', name: folder.name });
      if (folder.parent_id !== null)
        await recordFolderActivity({
          ownerId: folder.ownerId,
          folderId: folder.parent_id,
          actor: { id: userId },
          action: 'deleted',
          kind: 'folder',
          name: folder.name,
        });
    },

    /**
     * The Trash as docs/api.md#trash answers it, each list read from the database a page at a time
     * as the answer is written (lib/json-stream.ts): a Trash of any size holds one page.
     */
    async list(userId: string): Promise<{ [K in keyof TrashResponse]: AsyncIterable<TrashResponse[K][number]> }> {
      const retention = await retentionOf(userId);
      const purgeAt = (deletedAt: string) =>
        retention.autoDelete ? new Date(new Date(deletedAt).getTime() + retention.deleteAfterDays * DAY_MS).toISOString() : null;
      const trashFields = (row: { deleted_at: string | null }) => ({
        deletedAt: row.deleted_at as string,
        purgeAt: purgeAt(row.deleted_at as string),
      });
      return {
        folders: inPages(
          LIST_PAGE,
          (after: FoldersTable | null, limit: number) => trash.listFoldersPage(userId, pageKey(after), limit),
          (row) => ({ ...presentFolder(row), ...trashFields(row), ...deletedBy(row) }),
        ),
        files: inPages(
          LIST_PAGE,
          (after: FilesTable | null, limit: number) => trash.listFilesPage(userId, pageKey(after), limit),
          (row) => ({ ...presentFile(row), ...trashFields(row), ...deletedBy(row) }),
        ),
      };
    },

    async restore(userId: string, input: RestoreBody): Promise<{ file?: FileItem; folder?: Folder }> {
      if (input.type === 'file') {
        const file = await trash.findTrashedFile(userId, input.id);
        if (!file) throw notFound('Not found in Trash', 'NOT_IN_TRASH');
        const { name, placedIn } = await restoreUnderFreeName(file.name, (candidate) =>
          trash.restoreFile(userId, file.id, file.folder_id, candidate, clock.now().toISOString()),
        );
        return { file: presentFile({ ...file, folder_id: placedIn, name }) };
      }
      const folder = await trash.findTrashedFolder(userId, input.id);
      if (!folder) throw notFound('Not found in Trash', 'NOT_IN_TRASH');
      const { name, placedIn } = await restoreUnderFreeName(folder.name, (candidate) =>
        trash.restoreFolder(userId, folder.id, folder.parent_id, candidate, clock.now().toISOString()),
      );
      return { folder: presentFolder({ ...folder, parent_id: placedIn, name }) };
    },

    /** Deletes one item in Trash for good. */
    async purgeItem(userId: string, type: 'file' | 'folder', id: string): Promise<void> {
      const keys = await trash.purgeItem(userId, type, id, clock.now().toISOString());
      if (!keys) throw notFound('Not found in Trash', 'NOT_IN_TRASH');
      await deleteQueuedBlobs(keys);
    },

    /** Deletes every trashed item for good. */
    async empty(userId: string): Promise<void> {
      await purge(userId);
    },

    /** The sweeper's task: purges what each auto-deleting user's retention has run out on. */
    async purgeExpired(): Promise<{ users: number; files: number }> {
      let purgedFiles = 0;
      const users = await usersWithAutoDelete();
      for (const { userId, deleteAfterDays } of users) {
        const cutoff = new Date(clock.now().getTime() - deleteAfterDays * DAY_MS).toISOString();
        purgedFiles += await purge(userId, cutoff);
      }
      return { users: users.length, files: purgedFiles };
    },
  };
}

export type TrashService = ReturnType<typeof createTrashService>;
