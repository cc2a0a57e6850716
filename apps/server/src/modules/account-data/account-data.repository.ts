import type { Kysely } from 'kysely';
import { type AuditEntryRow, recordAuditEntry } from '../../db/admin-audit.ts';
import { queueUserBlobDeletions } from '../../db/blob-deletions.ts';
import { recordTreeChanges } from '../../db/change-journal.ts';
import type { Database, FilesTable, FoldersTable } from '../../db/schema.ts';
import { FILE_COLUMNS } from '../../db/file-columns.ts';
import { sharedRootEntries } from '../../db/share-root-changes.ts';

/** A whole account's rows, for export and deletion: queries only. */
export function createAccountDataRepository(db: Kysely<Database>) {
  return {
    liveFolders(userId: string): Promise<FoldersTable[]> {
      return db.selectFrom('folders').selectAll().where('user_id', '=', userId).where('deleted_at', 'is', null).execute();
    },

    liveFiles(userId: string): Promise<FilesTable[]> {
      return db
        .selectFrom('files')
        .select(FILE_COLUMNS)
        .where('user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .orderBy('id')
        .execute();
    },

    /**
     * The user row; every table that names the user deletes its rows with it (foreign keys
     * cascade). The blobs of their files, versions and uploads in progress are queued for
     * deletion in the same transaction (db/blob-deletions.ts), and so is the operator's
     * audit entry when an operator deletes it. The members of the user's private shares see
     * each share's root leave their change feed (`deleted`) in the same transaction; the
     * user's own feed goes with the user.
     */
    async deleteUser(userId: string, at: string, audit?: AuditEntryRow): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const lost = await sharedRootEntries(trx, userId, 'deleted');
        await queueUserBlobDeletions(trx, userId);
        await trx.deleteFrom('users').where('id', '=', userId).execute();
        await recordAuditEntry(trx, audit);
        // Last: the members' feed numbers are the last locks of the transaction.
        await recordTreeChanges(trx, userId, [], at, lost);
      });
    },
  };
}

export type AccountDataRepository = ReturnType<typeof createAccountDataRepository>;
