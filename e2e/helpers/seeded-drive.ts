import path from 'node:path';
import { createLocalBlobStore } from '../../apps/server/src/adapters/blob-store/local-blob-store.ts';
import { openDatabase } from '../../apps/server/src/db/database.ts';
import type { SeedTarget } from '../../apps/server/test/helpers/seeded-files.ts';
import type { AppServer } from './app-server.ts';

/**
 * The running app server's database and local blob store, opened from this process as another
 * node of the same deployment would, to seed what a journey only reads (a folder of thousands of
 * files) faster than the API makes it. `close` before the server stops.
 */
export async function openSeedTarget(server: AppServer): Promise<SeedTarget & { close(): Promise<void> }> {
  const database = openDatabase({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir: server.dataDir });
  const blobs = await createLocalBlobStore({ root: path.join(server.dataDir, 'blobs') });
  return { db: database.db, blobs, close: () => database.close() };
}
