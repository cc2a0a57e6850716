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
