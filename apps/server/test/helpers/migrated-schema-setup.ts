import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { MIGRATED_POSTGRES_TEMPLATE, MIGRATED_SQLITE_FILE, SQLITE_FILE_NAME, withClient } from './test-database.ts';

/**
 * vitest globalSetup: migrates once per run, so each test server starts from a copy of a
 * migrated schema (a PostgreSQL template database, or a SQLite file copied into its
 * DATA_DIR) instead of running every migration itself. The servers still run their
 * migrator, which then finds nothing to do. Workers start after this and inherit the
 * environment it sets.
 */
export default async function setup(): Promise<() => Promise<void>> {
  if (process.env.TEST_DB === 'postgres') {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
    const template = `cv_template_${randomBytes(6).toString('hex')}`;
    await withClient(adminUrl, (client) => client.query(`CREATE DATABASE ${template}`));
    const url = new URL(adminUrl);
    url.pathname = `/${template}`;
    // A template takes no connection while it is copied: this one is closed before any test starts.
    const handle = openDatabase({ databaseUrl: url.toString(), dataDir: os.tmpdir() });
    try {
      await migrateToLatest(handle.db, handle.dialect);
    } finally {
      await handle.close();
    }
    process.env[MIGRATED_POSTGRES_TEMPLATE] = template;
    return async () => {
      await withClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`));
    };
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-migrated-'));
  const handle = openDatabase({ databaseUrl: undefined, dataDir: dir });
  try {
    await migrateToLatest(handle.db, handle.dialect);
  } finally {
    // Closing the last connection folds the write-ahead log into the file, so the file alone is the database.
    await handle.close();
  }
  const file = path.join(dir, SQLITE_FILE_NAME);
  if (existsSync(`${file}-wal`)) throw new Error(`the migrated SQLite database left a write-ahead log beside ${file}`);
  process.env[MIGRATED_SQLITE_FILE] = file;
  return () => rm(dir, { recursive: true, force: true });
}
