import { nameKey } from '@cloudvault/contract/validation';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import {
  type ArchiveEntryRow,
  sqlArchiveEntriesPage,
  sqlLongestArchiveFolderPath,
  sqlLongestArchivePath,
} from '../../db/archive-entries.ts';
import { queueBlobDeletions } from '../../db/blob-deletions.ts';
import { fileChange, recordTreeChanges, type TreeChange } from '../../db/change-journal.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { inBatches } from '../../db/batches.ts';
import { numberedName } from '../../lib/unique-name.ts';
import { FILE_COLUMNS, LISTED_FILE_COLUMNS } from '../../db/file-columns.ts';
import { lockUsers } from '../../db/locks.ts';
import { changeStorageUsed } from '../../db/storage-usage.ts';
import { withNameKey } from '../../db/name-keys.ts';
import { type JsonWrapper, sqlOwnFolderListing } from '../../db/json-listing.ts';
import { compiledOnce } from '../../db/compiled-query.ts';
import { sqlEntryWithStar, sqlStarred } from '../../db/starred.ts';
import { type ListingSortOrder, positionOf, sortedColumns, sqlListingOrder } from '../../db/sorted-listing.ts';
import type { ListingPosition } from '../../lib/listing-pages.ts';
import { categorize } from '../../lib/content-types.ts';
import type { Database, FilesTable } from '../../db/schema.ts';
import { settleReservation } from './upload-reservations.repository.ts';

/** How an upload's completion went: listed, or why not (the service decides what to answer). */
export type UploadCompletion =
  | { outcome: 'stored'; storageUsed: number; /** The file replaced and put in Trash (trashTakenAt). */ trashed?: string }
  | { outcome: 'name-taken' }
  | { outcome: 'folder-gone' }
  | { outcome: 'lease-lost' };

/** One stored file of a batch's group to list: its row, and whether a taken name gets the next free one (`keep-both`) or is refused. */
export interface GroupedUpload {
  row: FileRow;
  keepBoth: boolean;
}

/** How a group's listing went: each file listed under its final name, or why not; or the whole group undone (lease-lost). */
export type GroupListing =
  | {
      outcome: 'stored';
      /** storage_used after the group's bytes were counted. */
      storageUsed: number;
      results: Array<{ listed: FileRow } | { refused: 'name-taken' | 'folder-gone' }>;
      /** The blobs of the files not listed, queued for deletion in the transaction. */
      refusedKeys: string[];
    }
  | { outcome: 'lease-lost' };

/** Names a keep-both file of a group tries before it is refused as taken (`name (n).ext`). */
const GROUP_NAME_TRIES = 100;

class LeaseLostError extends Error {}

export type FileRow = FilesTable;
/** The columns a listing shows: no blob keys leave the database for it; the hash only as a contentTag. */
export type ListedFile = Pick<FileRow, 'id' | 'name' | 'mimetype' | 'size' | 'folder_id' | 'created_at' | 'updated_at' | 'sha256'> & {
  /** Whether the caller starred it, where the query asked (db/starred.ts): SQLite answers 1 or 0. */
  starred?: boolean | number;
};
/**
 * LIKE pattern for a literal substring: the user's %, _ and \\ match only themselves.
 * Composed (NFC) as names are stored, but not lower-cased here: the database lowers it with
 * the same lower() as the names, so both fold case alike (PostgreSQL: Unicode; SQLite: ASCII
 * only). Search is a match, not a name's identity, so it keeps the indexes on lower(name).
 */
function containsPattern(term: string): string {
  return `%${term.normalize('NFC').replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * How a PostgreSQL search chooses (docs/decisions/0032-name-search.md, addendum): it filters
 * the first SEARCH_PROBE names in order; a term that enough of them contain is answered by
 * reading on, up to SEARCH_WALK names, index-only; a rarer one by the trigram index.
 */
const SEARCH_PROBE = 4_000;
const SEARCH_WALK = 100_000;
const NO_WRAPPER: JsonWrapper = { before: '', after: '' };

/** What the change journal says of a file (db/change-journal.ts fileChange): its place, name and content. */
const CHANGE_COLUMNS = ['id', 'folder_id', 'name', 'size', 'sha256', 'updated_at'] as const satisfies readonly (keyof FilesTable)[];

/** The user's live files named `name` (compared by nameKey) in the folder (null: the root). */
function liveByName(db: Kysely<Database>, userId: string, folderId: string | null, name: string) {
  return db
    .selectFrom('files')
    .where('user_id', '=', userId)
    .where(sql<string>`coalesce(folder_id, '')`, '=', folderId ?? '')
    .where('name_key', '=', nameKey(name))
    .where('deleted_at', 'is', null);
}

/** Puts the live file of this name in the folder in Trash (as a delete does), unless it is `except`; answers what it was. */
async function trashByName(
  db: Transaction<Database>,
  userId: string,
  folderId: string | null,
  name: string,
  at: string,
  except?: string,
): Promise<Pick<FilesTable, (typeof CHANGE_COLUMNS)[number]> | undefined> {
  const trashed = await db
    .updateTable('files')
    .set({ deleted_at: at, trashed_root: 1 })
    .where('user_id', '=', userId)
    .where(sql<string>`coalesce(folder_id, '')`, '=', folderId ?? '')
    .where('name_key', '=', nameKey(name))
    .where('deleted_at', 'is', null)
    .$if(except !== undefined, (query) => query.where('id', '!=', except!))
    .returning(CHANGE_COLUMNS)
    .execute();
  return trashed[0];
}

/**
 * Renames or moves a file in a transaction that has locked its owner, and records it:
 * `moved` from where it was (`updated` when neither its name nor its folder changed). A
 * file in Trash is renamed as before but not recorded, as it is in no one's tree.
 */
async function renameOrMove(
  trx: Transaction<Database>,
  userId: string,
  id: string,
  changes: RenameOrMove,
  before: TreeChange[] = [],
): Promise<void> {
  const current = await trx
    .selectFrom('files')
    .select(['folder_id', 'name', 'deleted_at'])
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const after = await trx
    .updateTable('files')
    .set(withNameKey(changes))
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning(CHANGE_COLUMNS)
    .executeTakeFirst();
  if (!current || !after || current.deleted_at !== null) return;
  const placed = current.folder_id !== after.folder_id || current.name !== after.name;
  const change = placed ? fileChange('moved', after, current.folder_id) : fileChange('updated', after);
  await recordTreeChanges(trx, userId, [...before, change], changes.updated_at);
}

/** A rename or a move: the new name, the new folder, or both, and when it happened. */
type RenameOrMove = Partial<Pick<FileRow, 'name' | 'folder_id'>> & Pick<FileRow, 'updated_at'>;

/** Files and the storage counter they add up to: queries only, scoped to the owner. */
export function createFilesRepository(db: Kysely<Database>, dialect: Dialect) {
  // Every listing runs one of these: compiled once, at start-up.
  const listRoot = compiledOnce(db, (before: string, after: string, userId: string, viewer: string) =>
    sqlOwnFolderListing(dialect, userId, null, { before, after }, viewer).compile(db),
  );
  const listFolder = compiledOnce(db, (before: string, after: string, userId: string, folderId: string, viewer: string) =>
    sqlOwnFolderListing(dialect, userId, folderId, { before, after }, viewer).compile(db),
  );
  return {
    findLive(userId: string, id: string): Promise<FileRow | undefined> {
      return db
        .selectFrom('files')
        .select(FILE_COLUMNS)
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
    },

    /** A live file whoever owns it: only for checking a share's reach, never shown as is. */
    findLiveAnyOwner(id: string): Promise<FileRow | undefined> {
      return db.selectFrom('files').select(FILE_COLUMNS).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
    },

    /**
     * The user's folder's files (null: the root) as the JSON array a listing answers with,
     * or null when the folder is not a live folder of theirs: one query checks and lists
     * (db/json-listing.ts). Each row's stored entry (migration 08), joined by the database
     * in name order, so no row is materialised in JavaScript. UTF-8 bytes ready for the
     * socket, inside `within` (an answer's envelope). Each entry says whether `viewer` starred it.
     */
    async listOwnLiveJson(
      userId: string,
      folderId: string | null,
      within: JsonWrapper = NO_WRAPPER,
      viewer: string = userId,
    ): Promise<Buffer | null> {
      const rows =
        folderId === null
          ? await listRoot(within.before, within.after, userId, viewer)
          : await listFolder(within.before, within.after, userId, folderId, viewer);
      const entries = rows[0]?.entries;
      if (entries === undefined) return null;
      // PostgreSQL's driver gives text: encoded here once instead of measured and then encoded by the reply.
      return typeof entries === 'string' ? Buffer.from(entries) : entries;
    },

    /** A folder's files as rows (shared folders' views); the owner's own listing uses listOwnLiveJson. */
    listLive(userId: string, folderId: string | null): Promise<ListedFile[]> {
      return db
        .selectFrom('files')
        .select(LISTED_FILE_COLUMNS)
        .where('user_id', '=', userId)
        .where(sql<string>`coalesce(folder_id, '')`, '=', folderId ?? '')
        .where('deleted_at', 'is', null)
        .orderBy('name_key')
        .execute();
    },

    /**
     * A page of the user's folder's live files (null: the root) in a sorted order, starting
     * after `after`: each file's stored listing entry (migration 08) and its place in the
     * order. Read on the order's index (migration 2026-12-06-26), `limit` rows whatever the
     * folder holds. Whether the folder is theirs is the caller's to check; each entry says
     * whether `viewer` starred it.
     */
    async listLiveSortedPage(
      userId: string,
      folderId: string | null,
      sortOrder: ListingSortOrder,
      after: ListingPosition | null,
      limit: number,
      viewer: string = userId,
    ): Promise<Array<{ entry: string; position: ListingPosition }>> {
      const order = sqlListingOrder(dialect, 'files', sortOrder);
      const rows = await db
        .selectFrom('files')
        .select([sqlEntryWithStar(viewer).as('entry'), ...sortedColumns('files', sortOrder.sort)])
        .where('user_id', '=', userId)
        .where(sql<string>`coalesce(folder_id, '')`, '=', folderId ?? '')
        .where('deleted_at', 'is', null)
        .$if(after !== null, (query) => query.where(order.after(after!)))
        .orderBy(order.orderBy)
        .limit(limit)
        .execute();
      return rows.map((row) => ({ entry: row.entry, position: positionOf('files', sortOrder.sort, row) }));
    },

    /** A page of a folder's zip members (its live sub-folders and files), by path, after `afterPath`. */
    async archiveEntries(userId: string, folderId: string, afterPath: string, limit: number): Promise<ArchiveEntryRow[]> {
      return (await sqlArchiveEntriesPage(dialect, userId, folderId, afterPath, limit).execute(db)).rows;
    },

    /** The byte length of the longest path in a folder's zip, checked before the zip starts. */
    async longestArchivePath(userId: string, folderId: string): Promise<number> {
      const { rows } = await sqlLongestArchivePath(dialect, userId, folderId).execute(db);
      return Number(rows[0]?.bytes ?? 0);
    },

    /** The longest path among a folder's zip members that are sub-folders, in UTF-8 bytes; 0 without any. */
    async longestArchiveFolderPath(userId: string, folderId: string): Promise<number> {
      const { rows } = await sqlLongestArchiveFolderPath(dialect, userId, folderId).execute(db);
      return Number(rows[0]?.bytes ?? 0);
    },

    /** Live files in any of the folders (batched: SQLite caps bound parameters). */
    async listLiveInFolders(userId: string, folderIds: string[]): Promise<FileRow[]> {
      const rows: FileRow[] = [];
      for (let i = 0; i < folderIds.length; i += 500) {
        rows.push(
          ...(await db
            .selectFrom('files')
            .select(FILE_COLUMNS)
            .where('user_id', '=', userId)
            .where('folder_id', 'in', folderIds.slice(i, i + 500))
            .where('deleted_at', 'is', null)
            .execute()),
        );
      }
      return rows;
    },

    /**
     * The first `limit` live files whose name contains `term`, in name order. Reads the
     * indexes of migrations 2026-11-24-21 and -23 (docs/decisions/0032-name-search.md): the
     * names in order, stopping at the limit; on PostgreSQL only the first SEARCH_PROBE or
     * SEARCH_WALK of them, then, for a rarer term, the trigram index, which finds its few
     * matches without reading the rest.
     */
    async searchLive(userId: string, term: string, limit: number): Promise<ListedFile[]> {
      const matches = sql<boolean>`lower(name) LIKE lower(${containsPattern(term)}) ESCAPE '\\'`;
      const starred = sqlStarred(userId, 'file', 'files.id').as('starred');
      const liveOfUser = db
        .selectFrom('files')
        .select(LISTED_FILE_COLUMNS)
        .select(starred)
        .where('user_id', '=', userId)
        .where('deleted_at', 'is', null);
      if (dialect === 'sqlite') {
        return liveOfUser
          .where(matches)
          .orderBy(sql`lower(name)`)
          .orderBy('id')
          .limit(limit)
          .execute();
      }
      // PostgreSQL's estimate of how many names contain a pattern does not look at the
      // names, so left to choose it walked a million names for a term that matches none.
      // The walks read files_live_search_walk_idx alone (its INCLUDE (name) makes them
      // index-only), the lowered name from the index; only the answer's rows are read.
      const walk = (names: number) => {
        const firstNames = db
          .selectFrom('files')
          .select(['id as hit_id', sql<string>`lower(name)`.as('lowered')])
          .where('user_id', '=', userId)
          .where('deleted_at', 'is', null)
          .orderBy(sql`lower(name)`)
          .orderBy('id')
          .limit(names)
          .as('walk');
        const hits = db
          .selectFrom(firstNames)
          .selectAll()
          .where(sql<boolean>`lowered LIKE lower(${containsPattern(term)}) ESCAPE '\\'`)
          .limit(limit)
          .as('hit');
        return db
          .selectFrom('files')
          .innerJoin(hits, 'hit.hit_id', 'files.id')
          .select(LISTED_FILE_COLUMNS)
          .select(starred)
          .orderBy('hit.lowered')
          .orderBy('hit.hit_id')
          .execute();
      };
      const probed = await walk(SEARCH_PROBE);
      if (probed.length === limit) return probed;
      // Enough matches among the first names that `limit` of them are likely within SEARCH_WALK:
      // a term a few per cent of names contain, whose trigram answer would fetch thousands of rows.
      if (probed.length * (SEARCH_WALK / SEARCH_PROBE) >= 2 * limit) {
        const walked = await walk(SEARCH_WALK);
        if (walked.length === limit) return walked;
      }
      // Rare among the names read: MATERIALIZED keeps the ORDER BY outside, so the planner
      // reads the trigram index for the matches.
      return db
        .with(
          (cte) => cte('hits').materialized(),
          () => liveOfUser.where(matches),
        )
        .selectFrom('hits')
        .selectAll()
        .orderBy(sql`lower(name)`)
        .orderBy('id')
        .limit(limit)
        .execute();
    },

    /**
     * Renames or moves, recorded in the journal; false when the target name is taken
     * (compared by nameKey), and then nothing is changed or recorded. The owner is locked
     * first, as every tree change does, so the folder it was in is read as it moved from.
     */
    async update(userId: string, id: string, changes: RenameOrMove): Promise<boolean> {
      try {
        await db.transaction().execute(async (trx) => {
          await lockUsers(trx, dialect, [userId]);
          await renameOrMove(trx, userId, id, changes);
        });
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    /**
     * Lists an upload's file and settles its reservation in one transaction that locks the
     * user first, as Trash does: a folder trashed meanwhile is seen here ('folder-gone'), or
     * takes the new file with it. 'name-taken' rolls everything back for the next name,
     * the journal's `created` (and `deleted` for a file replaced into Trash) with it.
     */
    async insertUploaded(row: FileRow, reservationId: string, options: { trashTakenAt?: string } = {}): Promise<UploadCompletion> {
      try {
        return await db.transaction().execute(async (trx) => {
          await lockUsers(trx, dialect, [row.user_id]);
          if (row.folder_id !== null) {
            const folder = await trx
              .selectFrom('folders')
              .select('id')
              .where('id', '=', row.folder_id)
              .where('user_id', '=', row.user_id)
              .where('deleted_at', 'is', null)
              .executeTakeFirst();
            if (!folder) return { outcome: 'folder-gone' } as const;
          }
          // Replacing on a plan without versions: the file that held the name goes to Trash whole.
          const trashed = options.trashTakenAt
            ? await trashByName(trx, row.user_id, row.folder_id, row.name, options.trashTakenAt)
            : undefined;
          await trx.insertInto('files').values(withNameKey(row)).execute();
          const storageUsed = await settleReservation(trx, reservationId, row.user_id, Number(row.size));
          // Thrown to roll the insert back: the node that took this one for dead has queued the blob.
          if (storageUsed === undefined) throw new LeaseLostError();
          // The replaced file leaves the listing before the new one takes its name.
          const changes = [...(trashed ? [fileChange('deleted', trashed)] : []), fileChange('created', row)];
          await recordTreeChanges(trx, row.user_id, changes, row.created_at);
          return { outcome: 'stored', storageUsed, ...(trashed ? { trashed: trashed.id } : {}) } as const;
        });
      } catch (error) {
        if (error instanceof LeaseLostError) return { outcome: 'lease-lost' };
        if (isUniqueViolation(error)) return { outcome: 'name-taken' };
        throw error;
      }
    },

    /**
     * Lists a group of a batch's stored files (POST /api/sync/uploads) in one transaction
     * that locks the user once: each distinct folder checked once, each file inserted with
     * ON CONFLICT DO NOTHING so a taken name skips only that file (a `keepBoth` one tries
     * `name (1).ext` and on in the next round), the reservation settled by the bytes listed, the
     * refused files' blobs queued for deletion, and one journal call for all the `created`
     * entries, so each folder above them gets one new tag. A lost lease undoes the group.
     */
    async insertUploadedMany(userId: string, uploads: readonly GroupedUpload[], reservationId: string): Promise<GroupListing> {
      try {
        return await db.transaction().execute(async (trx) => {
          await lockUsers(trx, dialect, [userId]);
          const folderIds = [...new Set(uploads.flatMap(({ row }) => (row.folder_id === null ? [] : [row.folder_id])))];
          const liveFolders = new Set(
            await inBatches(folderIds, async (batch) =>
              (
                await trx
                  .selectFrom('folders')
                  .select('id')
                  .where('id', 'in', batch)
                  .where('user_id', '=', userId)
                  .where('deleted_at', 'is', null)
                  .execute()
              ).map((folder) => folder.id),
            ),
          );
          const results: Array<{ listed: FileRow } | { refused: 'name-taken' | 'folder-gone' }> = uploads.map(({ row }) =>
            row.folder_id === null || liveFolders.has(row.folder_id) ? { refused: 'name-taken' } : { refused: 'folder-gone' },
          );
          let waiting = uploads.flatMap((upload, index) =>
            upload.row.folder_id === null || liveFolders.has(upload.row.folder_id) ? [{ upload, index }] : [],
          );
          for (let clash = 0; clash < GROUP_NAME_TRIES && waiting.length > 0; clash += 1) {
            const rows = waiting.map(({ upload }) => ({
              ...upload.row,
              name: clash === 0 ? upload.row.name : numberedName(upload.row.name, clash),
            }));
            const inserted = new Set(
              await inBatches(rows, async (batch) =>
                (
                  await trx
                    .insertInto('files')
                    .values(batch.map((row) => withNameKey(row)))
                    .onConflict((conflict) => conflict.doNothing())
                    .returning('id')
                    .execute()
                ).map((row) => row.id),
              ),
            );
            rows.forEach((row, at) => {
              if (inserted.has(row.id)) results[waiting[at]!.index] = { listed: row };
            });
            waiting = waiting.filter(({ upload }) => upload.keepBoth && !inserted.has(upload.row.id));
          }
          const listed = results.flatMap((result) => ('listed' in result ? [result.listed] : []));
          const storedBytes = listed.reduce((total, row) => total + Number(row.size), 0);
          const storageUsed = await settleReservation(trx, reservationId, userId, storedBytes);
          // Thrown to roll the group back: the node that took this one for dead gave the bytes back.
          if (storageUsed === undefined) throw new LeaseLostError();
          const refusedKeys = uploads.filter((_, index) => !('listed' in results[index]!)).map(({ row }) => row.blob_key);
          await queueBlobDeletions(trx, refusedKeys);
          const changes = listed.map((row) => fileChange('created', row));
          await recordTreeChanges(trx, userId, changes, listed[0]?.created_at ?? '');
          return { outcome: 'stored', storageUsed, results, refusedKeys } as const;
        });
      } catch (error) {
        if (error instanceof LeaseLostError) return { outcome: 'lease-lost' };
        throw error;
      }
    },

    /**
     * Deletes a file this request stored and turned out not to keep, with its versions, gives
     * their bytes back and queues their blobs, in one transaction. It was listed (and in the
     * journal) meanwhile, so its going is recorded as `deleted` at `at`.
     */
    discardUploaded(userId: string, id: string, at: string): Promise<string[]> {
      return db.transaction().execute(async (trx) => {
        await lockUsers(trx, dialect, [userId]);
        const versions = await trx
          .deleteFrom('file_versions')
          .where('file_id', '=', id)
          .where('user_id', '=', userId)
          .returning(['size', 'blob_key'])
          .execute();
        const files = await trx
          .deleteFrom('files')
          .where('id', '=', id)
          .where('user_id', '=', userId)
          .returning([...CHANGE_COLUMNS, 'blob_key', 'deleted_at', 'trashed_root'])
          .execute();
        const gone = [...versions, ...files];
        if (gone.length === 0) return [];
        const freed = gone.reduce((total, row) => total + Number(row.size), 0);
        await changeStorageUsed(trx, userId, -freed);
        const keys = gone.map((row) => row.blob_key);
        await queueBlobDeletions(trx, keys);
        // Live, or a root of Trash (a file inside a trashed folder went with the folder's `deleted`).
        const shown = files.filter((file) => file.deleted_at === null || Number(file.trashed_root) === 1);
        await recordTreeChanges(
          trx,
          userId,
          shown.map((file) => fileChange('deleted', file)),
          at,
        );
        return keys;
      });
    },

    /**
     * New bytes for the live file of this name in the folder, in one transaction: the
     * current ones kept as a version under `versionId` (plans with versioning), or, with no
     * versionId, given back and their blob queued for deletion (answered as `dropped`). The
     * file keeps its id, so its share links follow; the upload's reservation is settled with it.
     * Recorded as `updated`, with the new size and hash.
     */
    addVersionByName(
      userId: string,
      folderId: string | null,
      name: string,
      content: Pick<FileRow, 'mimetype' | 'category' | 'size' | 'sha256' | 'crc32' | 'blob_key' | 'updated_at'>,
      versionId: string | null,
      reservationId: string,
    ): Promise<{ row: FileRow; storageUsed: number; dropped?: string } | 'no-such-file' | 'lease-lost'> {
      return db.transaction().execute(async (trx) => {
        await lockUsers(trx, dialect, [userId]);
        const current = await trx
          .selectFrom('files')
          .select(FILE_COLUMNS)
          .where('user_id', '=', userId)
          .where(sql<string>`coalesce(folder_id, '')`, '=', folderId ?? '')
          .where('name_key', '=', nameKey(name))
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (!current) return 'no-such-file';
        const settled = await settleReservation(trx, reservationId, userId, Number(content.size));
        if (settled === undefined) return 'lease-lost';
        if (versionId === null) {
          const storageUsed = await changeStorageUsed(trx, userId, -Number(current.size));
          await queueBlobDeletions(trx, [current.blob_key]);
          await trx.updateTable('files').set(content).where('id', '=', current.id).execute();
          await recordTreeChanges(trx, userId, [fileChange('updated', { ...current, ...content })], content.updated_at);
          return { row: { ...current, ...content }, storageUsed, dropped: current.blob_key };
        }
        const storageUsed = settled;
        await trx
          .insertInto('file_versions')
          .values({
            id: versionId,
            file_id: current.id,
            user_id: userId,
            mimetype: current.mimetype,
            size: current.size,
            sha256: current.sha256,
            crc32: current.crc32,
            blob_key: current.blob_key,
            created_at: current.updated_at,
            replaced_at: content.updated_at,
          })
          .execute();
        await trx.updateTable('files').set(content).where('id', '=', current.id).execute();
        await recordTreeChanges(trx, userId, [fileChange('updated', { ...current, ...content })], content.updated_at);
        return { row: { ...current, ...content }, storageUsed };
      });
    },

    /**
     * Undoes an upload that gave a file new bytes and kept the old ones as version
     * `versionId`, when the upload was refused after all: the old bytes are the file's again,
     * the version row goes, and the new bytes are given back and queued for deletion (answered).
     * The new bytes were in the journal meanwhile, so the old ones are recorded as `updated` at `at`.
     */
    revertToVersion(userId: string, fileId: string, versionId: string, at: string): Promise<string[]> {
      return db.transaction().execute(async (trx) => {
        await lockUsers(trx, dialect, [userId]);
        const version = await trx
          .selectFrom('file_versions')
          .selectAll()
          .where('id', '=', versionId)
          .where('file_id', '=', fileId)
          .where('user_id', '=', userId)
          .executeTakeFirst();
        const file = await trx
          .selectFrom('files')
          .select(FILE_COLUMNS)
          .where('id', '=', fileId)
          .where('user_id', '=', userId)
          .executeTakeFirst();
        if (!version || !file) return [];
        const reverted = await trx
          .updateTable('files')
          .set({
            mimetype: version.mimetype,
            category: categorize(version.mimetype),
            size: version.size,
            sha256: version.sha256,
            crc32: version.crc32,
            blob_key: version.blob_key,
            updated_at: version.created_at,
          })
          .where('id', '=', fileId)
          .returning([...CHANGE_COLUMNS, 'deleted_at'])
          .executeTakeFirstOrThrow();
        await trx.deleteFrom('file_versions').where('id', '=', versionId).execute();
        await changeStorageUsed(trx, userId, -Number(file.size));
        await queueBlobDeletions(trx, [file.blob_key]);
        if (reverted.deleted_at === null) await recordTreeChanges(trx, userId, [fileChange('updated', reverted)], at);
        return [file.blob_key];
      });
    },

    /**
     * Takes a file an upload replaced back out of Trash, when the upload was refused after all
     * (docs/decisions/0050-name-clashes.md), recorded as `restored` at `at`; false when its
     * name was taken again meanwhile.
     */
    async untrashReplaced(userId: string, id: string, at: string): Promise<boolean> {
      try {
        return await db.transaction().execute(async (trx) => {
          await lockUsers(trx, dialect, [userId]);
          const restored = await trx
            .updateTable('files')
            .set({ deleted_at: null, trashed_root: 0 })
            .where('id', '=', id)
            .where('user_id', '=', userId)
            .where('trashed_root', '=', 1)
            .where('deleted_at', 'is not', null)
            .returning(CHANGE_COLUMNS)
            .executeTakeFirst();
          if (!restored) return false;
          await recordTreeChanges(trx, userId, [fileChange('restored', restored)], at);
          return true;
        });
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    /** The live file of this name (by nameKey) in the folder (null: the root), if any. */
    findLiveByName(userId: string, folderId: string | null, name: string): Promise<FileRow | undefined> {
      return liveByName(db, userId, folderId, name).select(FILE_COLUMNS).executeTakeFirst();
    },

    /**
     * Moves or renames a file onto a name another live file holds there, which goes to
     * Trash whole (its versions and shares with it) in the same transaction; false when
     * the name is taken anyway (a folder moved meanwhile, another request). Recorded as the
     * other file's `deleted`, then this one's `moved`.
     */
    async updateReplacing(userId: string, id: string, changes: Pick<FileRow, 'name' | 'folder_id' | 'updated_at'>): Promise<boolean> {
      try {
        await db.transaction().execute(async (trx) => {
          await lockUsers(trx, dialect, [userId]);
          const trashed = await trashByName(trx, userId, changes.folder_id, changes.name, changes.updated_at, id);
          await renameOrMove(trx, userId, id, changes, trashed ? [fileChange('deleted', trashed)] : []);
        });
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    async storageUsed(userId: string): Promise<number> {
      const row = await db.selectFrom('users').select('storage_used').where('id', '=', userId).executeTakeFirst();
      return Number(row?.storage_used ?? 0);
    },
  };
}

export type FilesRepository = ReturnType<typeof createFilesRepository>;
