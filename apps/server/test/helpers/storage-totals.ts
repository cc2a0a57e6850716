import { expect } from 'vitest';
import type { TestServer } from './test-server.ts';

/** The user's storage counter and the sum of their stored files' sizes, versions and Trash included. */
export async function storageTotals(server: TestServer, userId: string): Promise<{ used: number; sum: number }> {
  const db = server.container.database.db;
  const user = await db.selectFrom('users').select('storage_used').where('id', '=', userId).executeTakeFirstOrThrow();
  const files = await db.selectFrom('files').select('size').where('user_id', '=', userId).execute();
  const versions = await db.selectFrom('file_versions').select('size').where('user_id', '=', userId).execute();
  const sum = [...files, ...versions].reduce((total, row) => total + Number(row.size), 0);
  return { used: Number(user.storage_used), sum };
}

/**
 * Fails the test unless the user's storage counter equals the sum of their stored files,
 * versions and Trash included; answers both. Uploads in progress hold a reservation, so
 * call it when none is running.
 */
export async function assertStorageConsistent(server: TestServer, userId: string): Promise<{ used: number; sum: number }> {
  const totals = await storageTotals(server, userId);
  expect(totals.used, `storageUsed of user ${userId} differs from the sum of their stored files`).toBe(totals.sum);
  return totals;
}
