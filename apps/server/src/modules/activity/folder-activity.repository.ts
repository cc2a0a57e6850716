import { type Kysely, sql } from 'kysely';
import type { Database, FolderActivityTable } from '../../db/schema.ts';

/** Who did what inside an owner's folders (migration 31): queries only. */
export function createFolderActivityRepository(db: Kysely<Database>) {
  return {
    async insert(row: FolderActivityTable): Promise<void> {
      await db.insertInto('folder_activity').values(row).execute();
    },

    /**
     * The newest entries of the owner's folder and every folder under it, in one recursive
     * query (the same on SQLite and PostgreSQL). Folders in Trash keep their place in the
     * tree, so what happened inside one before it went is still shown.
     */
    async listSubtree(ownerId: string, folderId: string, limit: number): Promise<FolderActivityTable[]> {
      const result = await sql<FolderActivityTable>`
        WITH RECURSIVE tree AS (
          SELECT f.id FROM folders f WHERE f.id = ${folderId} AND f.user_id = ${ownerId}
          UNION
          SELECT c.id FROM folders c JOIN tree ON c.parent_id = tree.id
          WHERE c.user_id = ${ownerId}
        )
        SELECT a.* FROM folder_activity a
        WHERE a.owner_id = ${ownerId} AND a.folder_id IN (SELECT id FROM tree)
        ORDER BY a.created_at DESC, a.id DESC
        LIMIT ${limit}`.execute(db);
      return result.rows;
    },
  };
}

export type FolderActivityRepository = ReturnType<typeof createFolderActivityRepository>;
