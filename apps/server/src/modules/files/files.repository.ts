import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import { type ArchiveEntryRow, sqlArchiveEntriesPage, sqlLongestArchivePath } from '../../db/archive-entries.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { FILE_COLUMNS, LISTED_FILE_COLUMNS } from '../../db/file-columns.ts';
import { sqlFolderListingEntries } from '../../db/json-listing.ts';
import type { Database, FilesTable } from '../../db/schema.ts';

export type FileRow = FilesTable;
/** The columns a listing shows: no hashes or blob keys leave the database for it. */
export type ListedFile = Pick<FileRow, 'id' | 'name' | 'mimetype' | 'size' | 'folder_id' | 'created_at' | 'updated_at'>;
/** LIKE pattern for a literal substring: the user's % and _ match only themselves. */
function containsPattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Files and the storage counter they add up to: queries only, scoped to the owner. */
export function createFilesRepository(db: Kysely<Database>, dialect: Dialect) {
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
     * A folder's files as the JSON array a listing answers with: each row's stored entry
     * (migration 08), joined by the database in name order, so no row is materialised in
     * JavaScript.
     */
    async listLiveJson(userId: string, folderId: string | null): Promise<string> {
      const { rows } = await sqlFolderListingEntries(dialect, userId, folderId).execute(db);
      return `[${rows[0]?.entries ?? ''}]`;
    },

    /** A folder's files as rows (shared folders' views); the owner's own listing uses listLiveJson. */
    listLive(userId: string, folderId: string | null): Promise<ListedFile[]> {
      return db
        .selectFrom('files')
        .select(LISTED_FILE_COLUMNS)
        .where('user_id', '=', userId)
        .where(sql<string>`coalesce(folder_id, '')`, '=', folderId ?? '')
        .where('deleted_at', 'is', null)
        .orderBy(sql`lower(name)`)
        .execute();
    },

    /** Live files in any of the folders (batched: SQLite caps bound parameters). */
    /** A page of a folder's zip members (its live sub-folders and files), by path, after `afterPath`. */
    async archiveEntries(userId: string, folderId: string, afterPath: string, limit: number): Promise<ArchiveEntryRow[]> {
      return (await sqlArchiveEntriesPage(dialect, userId, folderId, afterPath, limit).execute(db)).rows;
    },

    /** The byte length of the longest path in a folder's zip, checked before the zip starts. */
    async longestArchivePath(userId: string, folderId: string): Promise<number> {
      const { rows } = await sqlLongestArchivePath(dialect, userId, folderId).execute(db);
      return Number(rows[0]?.bytes ?? 0);
    },

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

    searchLive(userId: string, term: string, limit: number): Promise<ListedFile[]> {
      return db
        .selectFrom('files')
        .select(LISTED_FILE_COLUMNS)
        .where('user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .where(sql<boolean>`lower(name) LIKE ${containsPattern(term)} ESCAPE '\\'`)
        .orderBy(sql`lower(name)`)
        .limit(limit)
        .execute();
    },

    /** Inserts the file; false when a live file in that folder already has the name. */
    async insert(row: FileRow): Promise<boolean> {
      try {
        await db.insertInto('files').values(row).execute();
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    /** Renames or moves; false when the target name is taken. */
    async update(userId: string, id: string, changes: Partial<Pick<FileRow, 'name' | 'folder_id' | 'updated_at'>>): Promise<boolean> {
      try {
        await db.updateTable('files').set(changes).where('id', '=', id).where('user_id', '=', userId).execute();
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    /**
     * Adds `bytes` to the user's usage only if the result stays within `limit`, in one
     * statement, so concurrent uploads can never together pass the quota.
     */
    async reserve(userId: string, bytes: number, limit: number): Promise<boolean> {
      const result = await db
        .updateTable('users')
        .set({ storage_used: sql`storage_used + ${bytes}` })
        .where('id', '=', userId)
        .where(sql<boolean>`storage_used + ${bytes} <= ${limit}`)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Gives back reserved bytes; answers the storage used after it. */
    async release(userId: string, bytes: number): Promise<number> {
      const row = await db
        .updateTable('users')
        .set({ storage_used: sql`storage_used - ${bytes}` })
        .where('id', '=', userId)
        .returning('storage_used')
        .executeTakeFirst();
      return Number(row?.storage_used ?? 0);
    },

    /**
     * New bytes for the live file of this name in the folder, the current ones kept as a
     * version (plans with versioning), in one transaction. The file keeps its id, so its
     * share links follow. Undefined when no live file has that name.
     */
    addVersionByName(
      userId: string,
      folderId: string | null,
      name: string,
      content: Pick<FileRow, 'mimetype' | 'category' | 'size' | 'sha256' | 'crc32' | 'blob_key' | 'updated_at'>,
      versionId: string,
    ): Promise<FileRow | undefined> {
      return db.transaction().execute(async (trx) => {
        const current = await trx
          .selectFrom('files')
          .select(FILE_COLUMNS)
          .where('user_id', '=', userId)
          .where(sql<string>`coalesce(folder_id, '')`, '=', folderId ?? '')
          .where(sql<string>`lower(name)`, '=', name.toLowerCase())
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (!current) return undefined;
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
        return { ...current, ...content };
      });
    },

    async deleteRow(userId: string, id: string): Promise<void> {
      await db.deleteFrom('files').where('id', '=', id).where('user_id', '=', userId).execute();
    },

    async storageUsed(userId: string): Promise<number> {
      const row = await db.selectFrom('users').select('storage_used').where('id', '=', userId).executeTakeFirst();
      return Number(row?.storage_used ?? 0);
    },
  };
}

export type FilesRepository = ReturnType<typeof createFilesRepository>;
