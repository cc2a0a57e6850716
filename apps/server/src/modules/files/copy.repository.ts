import { nameKey } from '@cloudvault/contract/validation';
import { type Kysely, sql, type Transaction } from 'kysely';
import { inBatches } from '../../db/batches.ts';
import { fileChange, folderChange, recordTreeChanges } from '../../db/change-journal.ts';
import type { Dialect } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { lockUsers } from '../../db/locks.ts';
import { withNameKey } from '../../db/name-keys.ts';
import type { Database, FilesTable, FoldersTable } from '../../db/schema.ts';
import { firstFreeName } from '../../lib/unique-name.ts';
import type { SourceFile, SourceFolder } from './copy-tree.ts';
import { settleReservation } from './upload-reservations.repository.ts';

/** What a copy's listing came to: the name its top item got and storage_used after it, or why not. */
export type CopyListing =
  | { outcome: 'listed'; name: string; storageUsed: number }
  | { outcome: 'folder-gone' }
  | { outcome: 'lease-lost' }
  | { outcome: 'name-taken' };

class LeaseLostError extends Error {}

const SOURCE_FILE_COLUMNS = ['id', 'folder_id', 'name', 'mimetype', 'category', 'size', 'sha256', 'crc32', 'blob_key'] as const;

/** The live folder `folderId` of the user and every live folder under it, as a recursive CTE named `tree`. */
const liveTree = (userId: string, folderId: string) => sql`
  WITH RECURSIVE tree AS (
    SELECT f.id FROM folders f WHERE f.id = ${folderId} AND f.user_id = ${userId} AND f.deleted_at IS NULL
    UNION
    SELECT c.id FROM folders c JOIN tree ON c.parent_id = tree.id
    WHERE c.user_id = ${userId} AND c.deleted_at IS NULL
  )`;

/**
 * The queries of a server-side copy (docs/decisions/0043-server-side-copy.md): what a
 * folder's tree holds, read a page at a time, and the copy's rows listed in one transaction
 * that settles its reservation.
 */
export function createCopyRepository(db: Kysely<Database>, dialect: Dialect) {
  /** Whether a live item of that name (compared by nameKey) is in the folder. */
  async function nameTaken(trx: Transaction<Database>, table: 'files' | 'folders', userId: string, parentId: string | null, name: string) {
    const parent = table === 'files' ? 'folder_id' : 'parent_id';
    const { rows } = await sql`
      SELECT 1 FROM ${sql.table(table)}
      WHERE user_id = ${userId} AND coalesce(${sql.ref(parent)}, '') = ${parentId ?? ''} AND name_key = ${nameKey(name)} AND deleted_at IS NULL
      LIMIT 1`.execute(trx);
    return rows.length > 0;
  }

  return {
    /** The live folder and every live folder under it, in no order: a tree's folders, which the copy holds while it runs. */
    async treeFolders(userId: string, folderId: string): Promise<SourceFolder[]> {
      const { rows } = await sql<SourceFolder>`
        ${liveTree(userId, folderId)}
        SELECT f.id, f.parent_id, f.name FROM folders f JOIN tree ON f.id = tree.id`.execute(db);
      return rows;
    },

    /** How many live files the tree holds, their total size and the largest one's, read by the database. */
    async treeTotals(userId: string, folderId: string): Promise<{ files: number; bytes: number; largest: number }> {
      const { rows } = await sql<{ files: number; bytes: number | null; largest: number | null }>`
        ${liveTree(userId, folderId)}
        SELECT COUNT(*) AS files, SUM(f.size) AS bytes, MAX(f.size) AS largest
        FROM files f JOIN tree ON f.folder_id = tree.id
        WHERE f.user_id = ${userId} AND f.deleted_at IS NULL`.execute(db);
      const totals = rows[0];
      return { files: Number(totals?.files ?? 0), bytes: Number(totals?.bytes ?? 0), largest: Number(totals?.largest ?? 0) };
    },

    /** A page of the tree's live files in id order after `afterId`: the copy never holds the source rows whole. */
    async treeFilesPage(userId: string, folderId: string, afterId: string, limit: number): Promise<SourceFile[]> {
      const { rows } = await sql<SourceFile>`
        ${liveTree(userId, folderId)}
        SELECT ${sql.join(SOURCE_FILE_COLUMNS.map((column) => sql.ref(`f.${column}`)))}
        FROM files f JOIN tree ON f.folder_id = tree.id
        WHERE f.user_id = ${userId} AND f.deleted_at IS NULL AND f.id > ${afterId}
        ORDER BY f.id
        LIMIT ${limit}`.execute(db);
      return rows;
    },

    /**
     * Lists a copy in one transaction, the user locked as every change of storage_used is:
     * the destination checked live, the top item (`folders[0]`, else `files[0]`) given the
     * first free name, every row inserted and the reservation settled at `storedBytes`.
     * A crash before the commit lists nothing; the reservation then runs out and its bytes
     * come back (docs/decisions/0021-crash-safe-storage.md).
     */
    async listCopy(input: {
      userId: string;
      destination: string | null;
      reservationId: string;
      storedBytes: number;
      folders: FoldersTable[];
      files: FilesTable[];
    }): Promise<CopyListing> {
      const { userId, destination, folders, files } = input;
      const [topTable, top] = folders[0] ? (['folders', folders[0]] as const) : (['files', files[0]!] as const);
      try {
        return await db.transaction().execute(async (trx) => {
          await lockUsers(trx, dialect, [userId]);
          if (destination !== null) {
            const live = await trx
              .selectFrom('folders')
              .select('id')
              .where('id', '=', destination)
              .where('user_id', '=', userId)
              .where('deleted_at', 'is', null)
              .executeTakeFirst();
            if (!live) return { outcome: 'folder-gone' } as const;
          }
          const name = await firstFreeName(
            top.name,
            async (candidate) => !(await nameTaken(trx, topTable, userId, destination, candidate)),
          );
          const named = <T extends FilesTable | FoldersTable>(rows: T[]): T[] => rows.map((row) => (row === top ? { ...row, name } : row));
          const folderRows = named(folders);
          const fileRows = named(files);
          await inBatches(folderRows, async (batch) => {
            await trx.insertInto('folders').values(batch.map(withNameKey)).execute();
          });
          await inBatches(fileRows, async (batch) => {
            await trx.insertInto('files').values(batch.map(withNameKey)).execute();
          });
          const storageUsed = await settleReservation(trx, input.reservationId, userId, input.storedBytes);
          // Thrown to roll the rows back: the node that took this one for dead gave the bytes back.
          if (storageUsed === undefined) throw new LeaseLostError();
          // Every row the copy made is `created` in the copier's feed, folders first (parents before children), last in the transaction.
          const created = [...folderRows.map((row) => folderChange('created', row)), ...fileRows.map((row) => fileChange('created', row))];
          await recordTreeChanges(trx, userId, created, top.created_at);
          return { outcome: 'listed', name, storageUsed } as const;
        });
      } catch (error) {
        if (error instanceof LeaseLostError) return { outcome: 'lease-lost' };
        // An item of the same name listed by a request that holds no user lock (a new folder) since the name was chosen.
        if (isUniqueViolation(error)) return { outcome: 'name-taken' };
        throw error;
      }
    },
  };
}

export type CopyRepository = ReturnType<typeof createCopyRepository>;
