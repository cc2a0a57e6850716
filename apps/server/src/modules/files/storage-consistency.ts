import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { filesTotal } from '../../db/storage-usage.ts';

export interface StorageDrift {
  userId: string;
  email: string;
  storageUsed: number;
  filesTotal: number;
}

/**
 * Users whose storage counter differs from the sum of their files' sizes (Trash and
 * versions included) and of their uploads in progress' reservations.
 */
export async function findStorageDrift(db: Kysely<Database>): Promise<StorageDrift[]> {
  const result = await sql<{ id: string; email: string; storage_used: number; files_total: number }>`
    SELECT u.id, u.email, u.storage_used,
      ${filesTotal(sql.ref('u.id'))}
        + COALESCE((SELECT SUM(r.bytes) FROM upload_reservations r WHERE r.user_id = u.id), 0) AS files_total
    FROM users u
    ORDER BY u.email`.execute(db);
  return result.rows
    .filter((row) => Number(row.storage_used) !== Number(row.files_total))
    .map((row) => ({
      userId: row.id,
      email: row.email,
      storageUsed: Number(row.storage_used),
      filesTotal: Number(row.files_total),
    }));
}
