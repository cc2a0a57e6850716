import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** A live folder as the tree lists it. */
export interface TreeFolderRow {
  id: string;
  parent_id: string | null;
  name: string;
  updated_at: string;
}

/** A live file as the tree lists it. */
export interface TreeFileRow {
  id: string;
  folder_id: string | null;
  name: string;
  size: number;
  sha256: string;
  updated_at: string;
}

/** Where a page reads: the owner's whole live tree, or the live folders below `rootId` (the root itself left out). */
export type TreeScope = { ownerId: string; rootId: string | null };

/**
 * The live folders below the scope's root, as a sub-query of ids: a recursive walk of live
 * parents (an item below a folder in Trash has its own deleted_at set, so live rows only
 * ever hang under live folders). Portable SQLite/PostgreSQL.
 */
function subtreeIds(scope: { ownerId: string; rootId: string }) {
  return sql<string>`(
    WITH RECURSIVE subtree(id) AS (
      SELECT id FROM folders WHERE id = ${scope.rootId} AND user_id = ${scope.ownerId} AND deleted_at IS NULL
      UNION ALL
      SELECT f.id FROM folders f JOIN subtree s ON f.parent_id = s.id
      WHERE f.user_id = ${scope.ownerId} AND f.deleted_at IS NULL
    )
    SELECT id FROM subtree
  )`;
}

/** GET /api/sync/tree: pages of an owner's live rows in id order (files_live_owner_id_idx, folders_live_owner_id_idx). */
export function createSyncTreeRepository(db: Kysely<Database>) {
  return {
    /** Up to `limit` live folders of the scope with an id after `afterId`, in id order. */
    foldersPage(scope: TreeScope, afterId: string | null, limit: number): Promise<TreeFolderRow[]> {
      let query = db
        .selectFrom('folders')
        .select(['id', 'parent_id', 'name', 'updated_at'])
        .where('user_id', '=', scope.ownerId)
        .where('deleted_at', 'is', null);
      if (scope.rootId !== null) query = query.where('parent_id', 'in', subtreeIds({ ownerId: scope.ownerId, rootId: scope.rootId }));
      if (afterId !== null) query = query.where('id', '>', afterId);
      return query.orderBy('id').limit(limit).execute();
    },

    /** Up to `limit` live files of the scope with an id after `afterId`, in id order. */
    filesPage(scope: TreeScope, afterId: string | null, limit: number): Promise<TreeFileRow[]> {
      let query = db
        .selectFrom('files')
        .select(['id', 'folder_id', 'name', 'size', 'sha256', 'updated_at'])
        .where('user_id', '=', scope.ownerId)
        .where('deleted_at', 'is', null);
      if (scope.rootId !== null) query = query.where('folder_id', 'in', subtreeIds({ ownerId: scope.ownerId, rootId: scope.rootId }));
      if (afterId !== null) query = query.where('id', '>', afterId);
      return query.orderBy('id').limit(limit).execute();
    },
  };
}

export type SyncTreeRepository = ReturnType<typeof createSyncTreeRepository>;
