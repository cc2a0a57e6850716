import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

export interface StorageDrift {
  userId: string;
  email: string;
  storageUsed: number;
  filesTotal: number;
}

/**
 * Users whose storage counter differs from the sum of their files' sizes (Trash and
 * versions included). Uploads in progress hold a reservation, so run it when idle.
 */
export async function findStorageDrift(db: Kysely<Database>): Promise<StorageDrift[]> {
  const result = await sql<{ id: string; email: string; storage_used: number; files_total: number }>`
    SELECT u.id, u.email, u.storage_used, COALESCE(SUM(f.size), 0) AS files_total
    FROM users u LEFT JOIN files f ON f.user_id = u.id
    GROUP BY u.id, u.email, u.storage_used
    HAVING u.storage_used <> COALESCE(SUM(f.size), 0)
    ORDER BY u.email`.execute(db);
  return result.rows.map((row) => ({
    userId: row.id,
    email: row.email,
    storageUsed: Number(row.storage_used),
    filesTotal: Number(row.files_total),
  }));
}
