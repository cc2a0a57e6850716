import type { StarredItemType } from '@cloudvault/contract/starred';
import { type Kysely, sql } from 'kysely';
import { LISTED_FILE_COLUMNS } from '../../db/file-columns.ts';
import type { Database, FilesTable, FoldersTable } from '../../db/schema.ts';

/** Where a page of Starred starts: after this star (newest first), by its time and then its item's id. */
export interface StarPosition {
  at: string;
  id: string;
}

export type StarredFileRow = Pick<FilesTable, (typeof LISTED_FILE_COLUMNS)[number]> & { starred_at: string };
export type StarredFolderRow = FoldersTable & { starred_at: string };

const TABLES = { file: 'files', folder: 'folders' } as const;
const COLUMNS = { file: 'file_id', folder: 'folder_id' } as const;

/** Stars of files and folders (migration 2026-12-06-28): queries only, scoped to the user. */
export function createStarsRepository(db: Kysely<Database>) {
  /** Keyset condition of a page: the stars older than `after` (ties by item id, descending). */
  const olderThan = (column: 'file_id' | 'folder_id', after: StarPosition | null) =>
    after === null
      ? sql<boolean>`1 = 1`
      : sql<boolean>`(stars.created_at < ${after.at} OR (stars.created_at = ${after.at} AND stars.${sql.raw(column)} < ${after.id}))`;

  return {
    /**
     * Stars the user's live item; nothing when it is starred already. The item is checked
     * in the insert itself, so one purged meanwhile is never referenced. False when it is
     * not a live item of theirs (missing, in Trash, someone else's).
     */
    async star(userId: string, type: StarredItemType, id: string, now: string): Promise<boolean> {
      const table = TABLES[type];
      const item = db
        .selectFrom(table)
        .select([
          sql<string>`${userId}`.as('user_id'),
          (type === 'file' ? sql<string | null>`id` : sql<string | null>`NULL`).as('file_id'),
          (type === 'folder' ? sql<string | null>`id` : sql<string | null>`NULL`).as('folder_id'),
          sql<string>`${now}`.as('created_at'),
        ])
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('deleted_at', 'is', null);
      const inserted = await db
        .insertInto('stars')
        .columns(['user_id', 'file_id', 'folder_id', 'created_at'])
        .expression(item)
        .onConflict((conflict) => conflict.doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return true;
      // Nothing inserted: starred already, or not the user's live item.
      const live = await db
        .selectFrom(table)
        .select('id')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return live !== undefined;
    },

    /** Removes the user's star of the item; whether there was one. */
    async unstar(userId: string, type: StarredItemType, id: string): Promise<boolean> {
      const deleted = await db.deleteFrom('stars').where('user_id', '=', userId).where(COLUMNS[type], '=', id).executeTakeFirst();
      return Number(deleted.numDeletedRows) > 0;
    },

    /** Whether the item (live or in Trash) is the user's. */
    async owns(userId: string, type: StarredItemType, id: string): Promise<boolean> {
      const row = await db.selectFrom(TABLES[type]).select('id').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      return row !== undefined;
    },

    /** The user's starred live files, newest star first, after `after`; at most `limit` (null: all). */
    starredFiles(userId: string, after: StarPosition | null, limit: number | null): Promise<StarredFileRow[]> {
      return db
        .selectFrom('stars')
        .innerJoin('files', 'files.id', 'stars.file_id')
        .select(LISTED_FILE_COLUMNS.map((column) => `files.${column}` as const))
        .select('stars.created_at as starred_at')
        .where('stars.user_id', '=', userId)
        .where('files.user_id', '=', userId)
        .where('files.deleted_at', 'is', null)
        .where(olderThan('file_id', after))
        .orderBy('stars.created_at', 'desc')
        .orderBy('stars.file_id', 'desc')
        .$if(limit !== null, (query) => query.limit(limit!))
        .execute();
    },

    /** The user's starred live folders, newest star first, after `after`; at most `limit` (null: all). */
    starredFolders(userId: string, after: StarPosition | null, limit: number | null): Promise<StarredFolderRow[]> {
      return db
        .selectFrom('stars')
        .innerJoin('folders', 'folders.id', 'stars.folder_id')
        .selectAll('folders')
        .select('stars.created_at as starred_at')
        .where('stars.user_id', '=', userId)
        .where('folders.user_id', '=', userId)
        .where('folders.deleted_at', 'is', null)
        .where(olderThan('folder_id', after))
        .orderBy('stars.created_at', 'desc')
        .orderBy('stars.folder_id', 'desc')
        .$if(limit !== null, (query) => query.limit(limit!))
        .execute();
    },
  };
}

export type StarsRepository = ReturnType<typeof createStarsRepository>;
