import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import { inBatches } from '../../db/batches.ts';
import { queueBlobDeletions } from '../../db/blob-deletions.ts';
import { fileChange, folderChange, recordTreeChanges, type TreeChange } from '../../db/change-journal.ts';
import type { Dialect } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { inUserTreeTransaction } from '../../db/locks.ts';
import { changeStorageUsed } from '../../db/storage-usage.ts';
import { withNameKey } from '../../db/name-keys.ts';
import { FILE_COLUMNS } from '../../db/file-columns.ts';
import type { Database, FilesTable, FoldersTable } from '../../db/schema.ts';
import { sharedRootEntries } from '../../db/share-root-changes.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** Ids of a folder and every live folder under it. */
async function liveSubtree(db: Db, userId: string, folderId: string): Promise<string[]> {
  const result = await sql<{ id: string }>`
    WITH RECURSIVE tree AS (
      SELECT id FROM folders WHERE id = ${folderId} AND user_id = ${userId} AND deleted_at IS NULL
      UNION
      SELECT f.id FROM folders f JOIN tree ON f.parent_id = tree.id
      WHERE f.user_id = ${userId} AND f.deleted_at IS NULL
    )
    SELECT id FROM tree`.execute(db);
  return result.rows.map((row) => row.id);
}

/**
 * Ids of a trashed folder and the folders that went to Trash with it, stopping at any
 * sub-folder that was deleted on its own before (it stays in Trash as its own item).
 */
async function travelledSubtree(db: Db, userId: string, folderId: string): Promise<string[]> {
  const result = await sql<{ id: string }>`
    WITH RECURSIVE tree AS (
      SELECT id FROM folders WHERE id = ${folderId} AND user_id = ${userId} AND trashed_root = 1
      UNION
      SELECT f.id FROM folders f JOIN tree ON f.parent_id = tree.id
      WHERE f.user_id = ${userId} AND f.deleted_at IS NOT NULL AND f.trashed_root = 0
    )
    SELECT id FROM tree`.execute(db);
  return result.rows.map((row) => row.id);
}

/** A trashed folder and every folder under it (all in Trash, since their ancestor is). */
async function trashedSubtree(db: Db, userId: string, folderId: string): Promise<string[]> {
  const result = await sql<{ id: string }>`
    WITH RECURSIVE tree AS (
      SELECT id FROM folders WHERE id = ${folderId} AND user_id = ${userId} AND trashed_root = 1
      UNION
      SELECT f.id FROM folders f JOIN tree ON f.parent_id = tree.id WHERE f.user_id = ${userId}
    )
    SELECT id FROM tree`.execute(db);
  return result.rows.map((row) => row.id);
}

/** Where a restored item lands: its old folder while that is live, the root otherwise. */
async function landingFolder(db: Db, userId: string, folderId: string | null): Promise<string | null> {
  if (folderId === null) return null;
  const live = await db
    .selectFrom('folders')
    .select('id')
    .where('id', '=', folderId)
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return live ? folderId : null;
}

/** A restore's outcome: where the item landed, or why it did not. */
export type RestoreOutcome = { placedIn: string | null } | 'name-taken' | 'not-in-trash';

/** Trash: soft deletion and its undoing, and the final purge. Queries only. */
/**
 * The earlier versions of these files: their rows go with the files (foreign-key cascade),
 * so their sizes are given back and their blobs deleted with the files'.
 */
async function versionsOf(trx: Kysely<Database>, fileIds: string[]): Promise<Array<{ size: number; blob_key: string }>> {
  return inBatches(fileIds, (batch) =>
    trx.selectFrom('file_versions').select(['size', 'blob_key']).where('file_id', 'in', batch).execute(),
  );
}

/**
 * Deletes these files (chosen for the user in the caller's transaction) by primary key
 * alone: with `user_id = ?` beside a long `id IN (…)`, SQLite's planner preferred the
 * (user_id, folder_id) index and read every remaining file of the user for each batch,
 * which made emptying a large Trash quadratic (docs/decisions/0036-trash-at-scale.md).
 */
async function deleteFilesById(trx: Transaction<Database>, files: ReadonlyArray<{ id: string }>): Promise<void> {
  await inBatches(files, (batch) =>
    trx
      .deleteFrom('files')
      .where(
        'id',
        'in',
        batch.map((file) => file.id),
      )
      .execute()
      .then(() => {}),
  );
}

/** Where a page of the Trash listing ends: the next one starts after it, newest first. */
export interface TrashPageKey {
  deletedAt: string;
  id: string;
}

/** Files per page of a purge: each page is one transaction, its rows and blob keys held at once. */
export const PURGE_PAGE = 500;

/** A file's columns its change in the feed carries. */
const CHANGE_FILE_COLUMNS = ['id', 'folder_id', 'name', 'size', 'sha256', 'updated_at'] as const;

/** A file a purge page deletes: what frees its bytes, and what its change in the feed carries. */
type PurgedFile = Pick<FilesTable, (typeof CHANGE_FILE_COLUMNS)[number] | 'blob_key' | 'trashed_root'>;
const PURGED_FILE_COLUMNS = sql.raw('id, folder_id, name, size, sha256, updated_at, blob_key, trashed_root');

/** Rows after the page before in (deleted_at desc, id desc) order: the key of Trash pages, for folders and files alike. */
function afterPageKey(after: TrashPageKey) {
  return sql<boolean>`(deleted_at < ${after.deletedAt} OR (deleted_at = ${after.deletedAt} AND id < ${after.id}))`;
}

/** The name of the account that put an item in Trash when it was not its owner (migration 31). */
export type DeleterName = { deleter_first_name: string | null; deleter_last_name: string | null };

/** The deleter's names, read beside the item's columns without a join (whose columns would clash). */
function deleterName(deletedBy: RawBuilder<unknown>) {
  return [
    sql<string | null>`(SELECT u.first_name FROM users u WHERE u.id = ${deletedBy})`.as('deleter_first_name'),
    sql<string | null>`(SELECT u.last_name FROM users u WHERE u.id = ${deletedBy})`.as('deleter_last_name'),
  ];
}

export function createTrashRepository(db: Kysely<Database>, dialect: Dialect) {
  const inTreeTransaction = <T>(userId: string, work: (trx: Transaction<Database>) => Promise<T>) =>
    inUserTreeTransaction(db, dialect, userId, work);
  return {
    /**
     * Moves the file to Trash: `deleted` in the feed (docs/decisions/0060-change-journal.md).
     * `deletedBy`: the editor who deleted the owner's file, null for the owner.
     */
    trashFile(userId: string, id: string, now: string, deletedBy: string | null = null): Promise<boolean> {
      return inTreeTransaction(userId, async (trx) => {
        const file = await trx
          .updateTable('files')
          .set({ deleted_at: now, trashed_root: 1, deleted_by: deletedBy })
          .where('id', '=', id)
          .where('user_id', '=', userId)
          .where('deleted_at', 'is', null)
          .returning(CHANGE_FILE_COLUMNS)
          .executeTakeFirst();
        if (!file) return false;
        await recordTreeChanges(trx, userId, [fileChange('deleted', file)], now);
        return true;
      });
    },

    /** Moves the folder and everything under it to Trash in one transaction; `deletedBy` as for a file. */
    trashFolder(userId: string, id: string, now: string, deletedBy: string | null = null): Promise<boolean> {
      return inTreeTransaction(userId, async (trx) => {
        const ids = await liveSubtree(trx, userId, id);
        if (ids.length === 0) return false;
        const folder = await trx.selectFrom('folders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
        // Read while they are live: what members of shares below it lose with it.
        const sharedBelow = await sharedRootEntries(trx, userId, 'deleted', { folderIds: ids, except: id });
        await inBatches(ids, (batch) =>
          trx
            .updateTable('folders')
            .set({ deleted_at: now, trashed_root: 0 })
            .where('id', 'in', batch)
            .execute()
            .then(() => {}),
        );
        await trx.updateTable('folders').set({ trashed_root: 1, deleted_by: deletedBy }).where('id', '=', id).execute();
        await inBatches(ids, (batch) =>
          trx
            .updateTable('files')
            .set({ deleted_at: now, trashed_root: 0 })
            .where('user_id', '=', userId)
            .where('folder_id', 'in', batch)
            .where('deleted_at', 'is', null)
            .execute()
            .then(() => {}),
        );
        // Only the folder is in the feed: what it holds goes with it.
        await recordTreeChanges(trx, userId, [folderChange('deleted', folder)], now, sharedBelow);
        return true;
      });
    },

    /**
     * A page of the folders in the user's Trash, newest first, after `after` (the last of the
     * page before), each with the name of the editor who deleted it, if one did.
     */
    listFoldersPage(userId: string, after: TrashPageKey | null, limit: number): Promise<Array<FoldersTable & DeleterName>> {
      return db
        .selectFrom('folders')
        .selectAll()
        .select(deleterName(sql.ref('folders.deleted_by')))
        .where('user_id', '=', userId)
        .where('trashed_root', '=', 1)
        .$if(after !== null, (query) => query.where(afterPageKey(after!)))
        .orderBy('deleted_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
    },

    /** A page of the files in the user's Trash, newest first, after `after`, with who deleted them as for folders. */
    listFilesPage(userId: string, after: TrashPageKey | null, limit: number): Promise<Array<FilesTable & DeleterName>> {
      return db
        .selectFrom('files')
        .select(FILE_COLUMNS)
        .select('deleted_by')
        .select(deleterName(sql.ref('files.deleted_by')))
        .where('user_id', '=', userId)
        .where('trashed_root', '=', 1)
        .$if(after !== null, (query) => query.where(afterPageKey(after!)))
        .orderBy('deleted_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
    },

    findTrashedFile(userId: string, id: string): Promise<FilesTable | undefined> {
      return db
        .selectFrom('files')
        .select(FILE_COLUMNS)
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('trashed_root', '=', 1)
        .executeTakeFirst();
    },

    findTrashedFolder(userId: string, id: string): Promise<FoldersTable | undefined> {
      return db
        .selectFrom('folders')
        .selectAll()
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('trashed_root', '=', 1)
        .executeTakeFirst();
    },

    /**
     * Brings a trashed file back as `name` into its old folder, or the root when that folder
     * is gone; the folder is checked inside the transaction, so it cannot go to Trash between.
     */
    async restoreFile(userId: string, id: string, folderId: string | null, name: string, now: string): Promise<RestoreOutcome> {
      try {
        return await inTreeTransaction(userId, async (trx) => {
          const placedIn = await landingFolder(trx, userId, folderId);
          const file = await trx
            .updateTable('files')
            .set(withNameKey({ deleted_at: null, trashed_root: 0, deleted_by: null, folder_id: placedIn, name }))
            .where('id', '=', id)
            .where('user_id', '=', userId)
            .where('trashed_root', '=', 1)
            .returning(CHANGE_FILE_COLUMNS)
            .executeTakeFirst();
          if (!file) return 'not-in-trash';
          await recordTreeChanges(trx, userId, [fileChange('restored', file)], now);
          return { placedIn };
        });
      } catch (error) {
        if (isUniqueViolation(error)) return 'name-taken';
        throw error;
      }
    },

    /**
     * Brings a trashed folder back as `name`, with what went to Trash with it, under its old
     * parent, or the root when that parent is gone (checked inside the transaction).
     */
    async restoreFolder(userId: string, id: string, parentId: string | null, name: string, now: string): Promise<RestoreOutcome> {
      try {
        return await inTreeTransaction(userId, async (trx) => {
          const ids = await travelledSubtree(trx, userId, id);
          if (ids.length === 0) return 'not-in-trash';
          const placedIn = await landingFolder(trx, userId, parentId);
          // The top folder comes back under its new place and name in one statement, so
          // its old name (perhaps taken again meanwhile) is never live there.
          await trx
            .updateTable('folders')
            .set(withNameKey({ deleted_at: null, trashed_root: 0, deleted_by: null, parent_id: placedIn, name }))
            .where('id', '=', id)
            .execute();
          await inBatches(ids, (batch) =>
            trx
              .updateTable('folders')
              .set({ deleted_at: null, trashed_root: 0 })
              .where('id', 'in', batch)
              .execute()
              .then(() => {}),
          );
          await inBatches(ids, (batch) =>
            trx
              .updateTable('files')
              .set({ deleted_at: null })
              .where('user_id', '=', userId)
              .where('folder_id', 'in', batch)
              .where('trashed_root', '=', 0)
              .where('deleted_at', 'is not', null)
              .execute()
              .then(() => {}),
          );
          const folder = await trx.selectFrom('folders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
          const sharedBelow = await sharedRootEntries(trx, userId, 'restored', { folderIds: ids, except: id });
          await recordTreeChanges(trx, userId, [folderChange('restored', folder)], now, sharedBelow);
          return { placedIn };
        });
      } catch (error) {
        // The name is taken there: the transaction rolled back; the caller tries the next name.
        if (isUniqueViolation(error)) return 'name-taken';
        throw error;
      }
    },

    /**
     * Deletes one item in Trash for good (a folder with everything under it, including
     * items deleted on their own before it) and frees its files' bytes from the quota.
     * Queues the blobs for deletion in the same transaction and answers their keys, or null
     * when the item is not in the user's Trash.
     */
    purgeItem(userId: string, type: 'file' | 'folder', id: string, now = new Date().toISOString()): Promise<string[] | null> {
      return inTreeTransaction(userId, async (trx) => {
        let files: Pick<FilesTable, 'id' | 'size' | 'blob_key'>[];
        let folderIds: string[] = [];
        let purged: TreeChange;
        if (type === 'file') {
          const file = await trx
            .selectFrom('files')
            .select([...CHANGE_FILE_COLUMNS, 'blob_key'])
            .where('id', '=', id)
            .where('user_id', '=', userId)
            .where('trashed_root', '=', 1)
            .executeTakeFirst();
          if (!file) return null;
          files = [file];
          purged = fileChange('deleted', file);
        } else {
          folderIds = await trashedSubtree(trx, userId, id);
          if (folderIds.length === 0) return null;
          purged = folderChange('deleted', await trx.selectFrom('folders').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
          files = [];
          for (let i = 0; i < folderIds.length; i += 500) {
            files.push(
              ...(await trx
                .selectFrom('files')
                .select(['id', 'size', 'blob_key'])
                .where('user_id', '=', userId)
                .where('folder_id', 'in', folderIds.slice(i, i + 500))
                .execute()),
            );
          }
        }
        const versions = await versionsOf(
          trx,
          files.map((file) => file.id),
        );
        await deleteFilesById(trx, files);
        // Deleting the top folder cascades to the folders under it.
        if (type === 'folder') await trx.deleteFrom('folders').where('id', '=', id).where('user_id', '=', userId).execute();
        const freed = [...files, ...versions].reduce((sum, file) => sum + Number(file.size), 0);
        if (freed > 0) await changeStorageUsed(trx, userId, -freed);
        const blobKeys = [...files, ...versions].map((file) => file.blob_key);
        await queueBlobDeletions(trx, blobKeys);
        // `deleted` again: Trash screens drop it; a client that saw it go to Trash ignores it.
        await recordTreeChanges(trx, userId, [purged], now);
        return blobKeys;
      });
    },

    /**
     * One page of a purge (all of the user's Trash, or what was deleted before `before`), in a
     * transaction of its own: up to PURGE_PAGE files in Trash after the id `after` (the last
     * of the page before), then, once those run out, files under a folder in Trash (live or
     * not: deleting a folder cascades to its contents, so their files must be counted here
     * too). They are deleted with their versions and the storage they counted. Once no such
     * file is left, the same transaction deletes the folders, so no cascade removes bytes the
     * quota still counts. Answers the freed blob keys and where the next page starts, or null
     * when the purge is done: emptying a Trash of any size holds one page of rows, and each
     * page reads only its own rows (files_trashed_idx, walked from `after`), so its cost does
     * not grow with what is left (docs/decisions/0036-trash-at-scale.md). The blobs are queued
     * for deletion in the same transaction (db/blob-deletions.ts).
     */
    purgePage(
      userId: string,
      before: string | undefined,
      after: string,
      now: string,
    ): Promise<{ blobKeys: string[]; next: string | null }> {
      return inTreeTransaction(userId, async (trx) => {
        const deletedInTime =
          before === undefined ? sql<boolean>`deleted_at IS NOT NULL` : sql<boolean>`deleted_at IS NOT NULL AND deleted_at < ${before}`;
        const { rows: trashed } = await sql<PurgedFile>`
          SELECT ${PURGED_FILE_COLUMNS} FROM files
          WHERE user_id = ${userId} AND ${deletedInTime} AND id > ${after}
          ORDER BY id
          LIMIT ${PURGE_PAGE}`.execute(trx);
        // Normally none: every file under a folder in Trash went there with it, or before it.
        // The roots are the user's folders; what lies under them is theirs too (folders nest within one user).
        const { rows: underTrashedFolders } =
          trashed.length === PURGE_PAGE
            ? { rows: [] }
            : await sql<PurgedFile>`
              SELECT ${PURGED_FILE_COLUMNS} FROM files
              WHERE user_id = ${userId} AND folder_id IN (
                WITH RECURSIVE tree AS (
                  SELECT id FROM folders WHERE user_id = ${userId} AND ${deletedInTime}
                  UNION
                  SELECT f.id FROM folders f JOIN tree ON f.parent_id = tree.id
                )
                SELECT id FROM tree)
              LIMIT ${PURGE_PAGE}`.execute(trx);
        // The trashed files of this page lie under those folders too: each file counts once.
        const inPage = new Set(trashed.map((file) => file.id));
        const files = [...trashed, ...underTrashedFolders.filter((file) => !inPage.has(file.id))].slice(0, PURGE_PAGE);
        const versions = await versionsOf(
          trx,
          files.map((file) => file.id),
        );
        await deleteFilesById(trx, files);
        const freed = [...files, ...versions].reduce((sum, file) => sum + Number(file.size), 0);
        if (freed > 0) await changeStorageUsed(trx, userId, -freed);
        const done = files.length < PURGE_PAGE;
        // The items the user put in Trash are `deleted` again as they go (what went with them, with them).
        const purged = files.filter((file) => Number(file.trashed_root) === 1).map((file) => fileChange('deleted', file));
        if (done) {
          const folders = await trx
            .selectFrom('folders')
            .selectAll()
            .where('user_id', '=', userId)
            .where(deletedInTime)
            .where('trashed_root', '=', 1)
            .execute();
          purged.push(...folders.map((folder) => folderChange('deleted', folder)));
          // Sub-folders go with their parents (ON DELETE CASCADE); no file is left under any of them.
          await trx.deleteFrom('folders').where('user_id', '=', userId).where(deletedInTime).execute();
        }
        const blobKeys = [...files, ...versions].map((file) => file.blob_key);
        await queueBlobDeletions(trx, blobKeys);
        await recordTreeChanges(trx, userId, purged, now);
        // A page that had to look under the folders starts the next one there again, past every trashed file.
        return { blobKeys, next: done ? null : (trashed.at(-1)?.id ?? after) };
      });
    },
  };
}

export type TrashRepository = ReturnType<typeof createTrashRepository>;
