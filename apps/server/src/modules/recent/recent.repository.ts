import { type Kysely, sql } from 'kysely';
import { LISTED_FILE_COLUMNS } from '../../db/file-columns.ts';
import type { Database, FilesTable, FoldersTable } from '../../db/schema.ts';
import { sqlStarred } from '../../db/starred.ts';

/** A file as Recent reads it: when it changed, when its owner last opened it, and whether they starred it. */
export type RecentFileRow = Pick<FilesTable, (typeof LISTED_FILE_COLUMNS)[number]> & {
  opened_at: string | null;
  starred: boolean | number;
};

/** Recently opened and changed files (migration 2026-12-06-28): queries only, scoped to the owner. */
export function createRecentRepository(db: Kysely<Database>) {
  const liveFiles = (userId: string) =>
    db
      .selectFrom('files')
      .leftJoin('file_opens', 'file_opens.file_id', 'files.id')
      .select(LISTED_FILE_COLUMNS.map((column) => `files.${column}` as const))
      .select(['file_opens.opened_at', sqlStarred(userId, 'file', 'files.id').as('starred')])
      .where('files.user_id', '=', userId)
      .where('files.deleted_at', 'is', null);

  return {
    /** When the owner last opened the file, or undefined: read before writing, so most opens write nothing. */
    async lastOpened(fileId: string): Promise<string | undefined> {
      const row = await db.selectFrom('file_opens').select('opened_at').where('file_id', '=', fileId).executeTakeFirst();
      return row?.opened_at;
    },

    /** Records that the owner opened their file at `now`. */
    async recordOpen(userId: string, fileId: string, now: string): Promise<void> {
      await db
        .insertInto('file_opens')
        .values({ file_id: fileId, user_id: userId, opened_at: now })
        .onConflict((conflict) => conflict.column('file_id').doUpdateSet({ opened_at: now, user_id: userId }))
        .execute();
    },

    /** The user's live files changed last (uploaded, a new version, renamed, moved), on files_live_recent_idx. */
    changedLast(userId: string, limit: number): Promise<RecentFileRow[]> {
      return liveFiles(userId).orderBy('files.updated_at', 'desc').orderBy('files.id', 'desc').limit(limit).execute();
    },

    /** The user's live files opened last, on file_opens_user_recent_idx. */
    openedLast(userId: string, limit: number): Promise<RecentFileRow[]> {
      return liveFiles(userId)
        .where('file_opens.user_id', '=', userId)
        .where(sql<boolean>`file_opens.opened_at IS NOT NULL`)
        .orderBy('file_opens.opened_at', 'desc')
        .orderBy('files.id', 'desc')
        .limit(limit)
        .execute();
    },

    /** The user's folders among `ids`: where the recent files are. */
    foldersOf(userId: string, ids: readonly string[]): Promise<FoldersTable[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return db.selectFrom('folders').selectAll().where('user_id', '=', userId).where('id', 'in', ids).execute();
    },
  };
}

export type RecentRepository = ReturnType<typeof createRecentRepository>;
