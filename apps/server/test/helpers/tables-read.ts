import { vi } from 'vitest';
import type { TestServer } from './test-server.ts';

/**
 * Runs `action` and answers its result with the tables the server read meanwhile, one entry
 * per query: how a test sees that a listing pages through the database in a few queries.
 */
export async function withTablesRead<T>(server: TestServer, action: () => Promise<T>): Promise<{ result: T; tablesRead: string[] }> {
  const db = server.container.database.db;
  const selectFrom = db.selectFrom.bind(db);
  const tablesRead: string[] = [];
  const spy = vi.spyOn(db, 'selectFrom').mockImplementation(((table: string) => {
    tablesRead.push(table);
    return selectFrom(table as 'folders');
  }) as typeof db.selectFrom);
  try {
    return { result: await action(), tablesRead };
  } finally {
    spy.mockRestore();
  }
}
