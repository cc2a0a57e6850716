import { nameKey } from '@cloudvault/contract/validation';
import { type Kysely, sql, type Transaction } from 'kysely';
import { compiledOnce } from '../../db/compiled-query.ts';
import type { Dialect } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { withNameKey } from '../../db/name-keys.ts';
import { inUserTreeTransaction } from '../../db/locks.ts';
import { folderChange, recordTreeChanges } from '../../db/change-journal.ts';
import { sqlStarred } from '../../db/starred.ts';
import { type ListingSortOrder, sqlListingOrder } from '../../db/sorted-listing.ts';
import type { ListingPosition } from '../../lib/listing-pages.ts';
import type { Database, FoldersTable } from '../../db/schema.ts';

export type FolderRow = FoldersTable;
/** A folder as a listing reads it: whether the viewer starred it too (SQLite answers 1 or 0). */
export type ListedFolderRow = FolderRow & { starred: boolean | number };

/** The live folder and its ancestors, top-level first, in one recursive query. */
async function pathTo(db: Kysely<Database> | Transaction<Database>, userId: string, id: string): Promise<FolderRow[]> {
  const result = await sql<FolderRow & { depth: number }>`
    WITH RECURSIVE chain AS (
      SELECT f.*, 0 AS depth FROM folders f
      WHERE f.id = ${id} AND f.user_id = ${userId} AND f.deleted_at IS NULL
      UNION
      SELECT p.*, chain.depth + 1 FROM folders p
      JOIN chain ON p.id = chain.parent_id
      -- The depth cap ends the walk even if a race ever made a cycle.
      WHERE p.user_id = ${userId} AND chain.depth < 10000
    )
    SELECT * FROM chain ORDER BY depth DESC`.execute(db);
  return result.rows.map(({ depth: _depth, ...row }) => row as FolderRow);
}

/** Folders: queries only. Every read is scoped to the owner in the query itself. */
export function createFoldersRepository(db: Kysely<Database>, dialect: Dialect) {
  // The access check of most requests about a folder: compiled once (db/compiled-query.ts).
  const liveFolder = compiledOnce(db, (userId: string, id: string) =>
    db.selectFrom('folders').selectAll().where('id', '=', id).where('user_id', '=', userId).where('deleted_at', 'is', null).compile(),
  );
  return {
    async findLive(userId: string, id: string): Promise<FolderRow | undefined> {
      return (await liveFolder(userId, id))[0];
    },

    listLive(userId: string, parentId: string | null): Promise<FolderRow[]> {
      return (
        db
          .selectFrom('folders')
          .selectAll()
          .where('user_id', '=', userId)
          // Phrased as folders_live_name_key_idx is built, so the index finds and orders.
          .where(sql<string>`coalesce(parent_id, '')`, '=', parentId ?? '')
          .where('deleted_at', 'is', null)
          .orderBy('name_key')
          .execute()
      );
    },

    /**
     * A page of the live folders in a parent, by name, after `afterName` (the last of the page
     * before): name_key is unique among live siblings, so it alone orders the pages. Each
     * says whether `viewer` starred it.
     */
    listLivePage(
      userId: string,
      parentId: string | null,
      afterName: string | null,
      limit: number,
      viewer: string = userId,
    ): Promise<ListedFolderRow[]> {
      return (
        db
          .selectFrom('folders')
          .selectAll()
          .select(sqlStarred(viewer, 'folder', 'folders.id').as('starred'))
          .where('user_id', '=', userId)
          // Phrased as folders_live_name_key_idx is built, so the index finds, orders and starts the page.
          .where(sql<string>`coalesce(parent_id, '')`, '=', parentId ?? '')
          .where('deleted_at', 'is', null)
          .$if(afterName !== null, (query) => query.where('name_key', '>', nameKey(afterName ?? '')))
          .orderBy('name_key')
          .limit(limit)
          .execute()
      );
    },

    /**
     * A page of the live folders in a parent in a sorted order, starting after `after`
     * (db/sorted-listing.ts), read on the order's index (migration 2026-12-06-26). Each says
     * whether `viewer` starred it.
     */
    listLiveSortedPage(
      userId: string,
      parentId: string | null,
      sortOrder: ListingSortOrder,
      after: ListingPosition | null,
      limit: number,
      viewer: string = userId,
    ): Promise<ListedFolderRow[]> {
      const order = sqlListingOrder(dialect, 'folders', sortOrder);
      return db
        .selectFrom('folders')
        .selectAll()
        .select(sqlStarred(viewer, 'folder', 'folders.id').as('starred'))
        .where('user_id', '=', userId)
        .where(sql<string>`coalesce(parent_id, '')`, '=', parentId ?? '')
        .where('deleted_at', 'is', null)
        .$if(after !== null, (query) => query.where(order.after(after!)))
        .orderBy(order.orderBy)
        .limit(limit)
        .execute();
    },

    /** Inserts the folder; false when a live sibling already has the name (compared by nameKey). */
    async insert(row: FolderRow): Promise<boolean> {
      try {
        await db.transaction().execute(async (trx) => {
          await trx.insertInto('folders').values(withNameKey(row)).execute();
          await recordTreeChanges(trx, row.user_id, [folderChange('created', row)], row.created_at);
        });
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    /**
     * Renames or moves, refusing a move into the folder itself or its own subtree, or into a
     * folder gone to Trash meanwhile. Checked and done in one tree transaction, so two
     * crossing moves cannot together make a cycle.
     */
    async update(
      userId: string,
      id: string,
      changes: Partial<Pick<FolderRow, 'name' | 'parent_id' | 'updated_at'>>,
    ): Promise<'updated' | 'name-taken' | 'into-itself' | 'parent-gone'> {
      try {
        return await inUserTreeTransaction(db, dialect, userId, async (trx) => {
          if (changes.parent_id) {
            const targetPath = await pathTo(trx, userId, changes.parent_id);
            if (targetPath.length === 0) return 'parent-gone';
            if (targetPath.some((ancestor) => ancestor.id === id)) return 'into-itself';
          }
          const before = await trx
            .selectFrom('folders')
            .select(['parent_id', 'name'])
            .where('id', '=', id)
            .where('user_id', '=', userId)
            .executeTakeFirst();
          const after = await trx
            .updateTable('folders')
            .set(withNameKey(changes))
            .where('id', '=', id)
            .where('user_id', '=', userId)
            .returningAll()
            .executeTakeFirst();
          // A rename or a move is `moved` in the feed; one that changed neither changes no listing.
          if (before && after && after.deleted_at === null && (after.name !== before.name || after.parent_id !== before.parent_id))
            await recordTreeChanges(trx, userId, [folderChange('moved', after, before.parent_id)], after.updated_at);
          return 'updated';
        });
      } catch (error) {
        if (isUniqueViolation(error)) return 'name-taken';
        throw error;
      }
    },

    /** The live folder and every live folder under it, in one recursive query. */
    /** A live folder whoever owns it: only for checking a share's reach, never shown as is. */
    findLiveAnyOwner(id: string): Promise<FolderRow | undefined> {
      return db.selectFrom('folders').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
    },

    async liveSubtree(userId: string, id: string): Promise<FolderRow[]> {
      const result = await sql<FolderRow>`
        WITH RECURSIVE tree AS (
          SELECT f.* FROM folders f WHERE f.id = ${id} AND f.user_id = ${userId} AND f.deleted_at IS NULL
          UNION
          SELECT c.* FROM folders c JOIN tree ON c.parent_id = tree.id
          WHERE c.user_id = ${userId} AND c.deleted_at IS NULL
        )
        SELECT * FROM tree`.execute(db);
      return result.rows;
    },

    /** The live folder and its ancestors, top-level first, in one recursive query. */
    pathTo: (userId: string, id: string) => pathTo(db, userId, id),
  };
}

export type FoldersRepository = ReturnType<typeof createFoldersRepository>;
