import type { Kysely } from 'kysely';
import type { Database, FilesTable, FoldersTable } from '../../db/schema.ts';
import { FILE_COLUMNS } from '../../db/file-columns.ts';

/** A whole account's rows, for export and deletion: queries only. */
export function createAccountDataRepository(db: Kysely<Database>) {
  return {
    liveFolders(userId: string): Promise<FoldersTable[]> {
      return db.selectFrom('folders').selectAll().where('user_id', '=', userId).where('deleted_at', 'is', null).execute();
    },

    liveFiles(userId: string): Promise<FilesTable[]> {
      return db.selectFrom('files').select(FILE_COLUMNS).where('user_id', '=', userId).where('deleted_at', 'is', null).orderBy('id').execute();
    },

    /** Every blob the user's files and their versions use, Trash included. */
    async blobKeys(userId: string): Promise<string[]> {
      const files = await db.selectFrom('files').select('blob_key').where('user_id', '=', userId).execute();
      const versions = await db.selectFrom('file_versions').select('blob_key').where('user_id', '=', userId).execute();
      return [...files, ...versions].map((row) => row.blob_key);
    },

    /** The user row; every table that names the user deletes its rows with it (foreign keys cascade). */
    async deleteUser(userId: string): Promise<void> {
      await db.deleteFrom('users').where('id', '=', userId).execute();
    },
  };
}

export type AccountDataRepository = ReturnType<typeof createAccountDataRepository>;
