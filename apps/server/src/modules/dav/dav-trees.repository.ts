import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** Sizes and counts of My Files' folders that WebDAV weighs before it answers: queries only, scoped to the owner. */
export function createDavTreesRepository(db: Kysely<Database>) {
  return {
    /** The live files under a folder, at any depth: their total size and the largest one, in bytes (what a COPY will take). */
    async treeSize(userId: string, folderId: string): Promise<{ bytes: number; largest: number }> {
      const { rows } = await sql<{ bytes: number | string | null; largest: number | string | null }>`
        WITH RECURSIVE tree (id) AS (
          SELECT id FROM folders WHERE id = ${folderId} AND user_id = ${userId} AND deleted_at IS NULL
          UNION ALL
          SELECT c.id FROM folders c JOIN tree ON c.parent_id = tree.id WHERE c.user_id = ${userId} AND c.deleted_at IS NULL
        )
        SELECT sum(f.size) AS bytes, max(f.size) AS largest FROM tree CROSS JOIN files f
        WHERE f.folder_id = tree.id AND f.user_id = ${userId} AND f.deleted_at IS NULL`.execute(db);
      return { bytes: Number(rows[0]?.bytes ?? 0), largest: Number(rows[0]?.largest ?? 0) };
    },

    /**
     * How many dead properties a COPY of the resource would add: its own, and with `tree`
     * those of every live folder and file under it; and how many the account holds.
     */
    async propertyCounts(userId: string, resourceId: string, tree: boolean): Promise<{ copied: number; held: number }> {
      const { rows } = await sql<{ copied: number | string; held: number | string }>`
        WITH RECURSIVE tree (id) AS (
          SELECT id FROM folders WHERE ${tree ? 1 : 0} = 1 AND id = ${resourceId} AND user_id = ${userId} AND deleted_at IS NULL
          UNION ALL
          SELECT c.id FROM folders c JOIN tree ON c.parent_id = tree.id WHERE c.user_id = ${userId} AND c.deleted_at IS NULL
        ),
        copied (id) AS (
          SELECT ${resourceId}
          UNION SELECT id FROM tree
          UNION SELECT f.id FROM tree CROSS JOIN files f WHERE f.folder_id = tree.id AND f.user_id = ${userId} AND f.deleted_at IS NULL
        )
        SELECT
          (SELECT count(*) FROM dav_properties p WHERE p.user_id = ${userId} AND p.resource_id IN (SELECT id FROM copied)) AS copied,
          (SELECT count(*) FROM dav_properties p WHERE p.user_id = ${userId}) AS held`.execute(db);
      return { copied: Number(rows[0]?.copied ?? 0), held: Number(rows[0]?.held ?? 0) };
    },

    /** How many live folders and files a folder (null: My Files) holds directly (what a depth-1 listing shows). */
    async memberCount(userId: string, folderId: string | null): Promise<number> {
      const parent = folderId ?? '';
      const folders = await db
        .selectFrom('folders')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('user_id', '=', userId)
        .where(sql<string>`coalesce(parent_id, '')`, '=', parent)
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
      const files = await db
        .selectFrom('files')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('user_id', '=', userId)
        .where(sql<string>`coalesce(folder_id, '')`, '=', parent)
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(folders.count) + Number(files.count);
    },
  };
}

export type DavTreesRepository = ReturnType<typeof createDavTreesRepository>;
