import { randomBytes } from 'node:crypto';
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

/**
 * Where the run's migrated schema waits (apps/server/test/helpers/migrated-schema-setup.ts
 * makes it once per vitest run): a PostgreSQL template database's name, or a SQLite file.
 */
export const MIGRATED_POSTGRES_TEMPLATE = 'CLOUDVAULT_TEST_POSTGRES_TEMPLATE';
export const MIGRATED_SQLITE_FILE = 'CLOUDVAULT_TEST_SQLITE_FILE';
/** The file the server opens in its DATA_DIR (src/db/database.ts). */
export const SQLITE_FILE_NAME = 'cloudvault.sqlite';

/**
 * A database of its own inside the PostgreSQL server at `adminUrl`, and how to drop it;
 * a copy of `template` when given (CREATE DATABASE … TEMPLATE copies files, it runs nothing).
 */
export async function createPostgresDatabase(adminUrl: string, template?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `cv_test_${randomBytes(6).toString('hex')}`;
  await withClient(adminUrl, (client) => client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  };
}

/**
 * The database a test server uses: SQLite in its DATA_DIR by default; with
 * TEST_DB=postgres a fresh PostgreSQL database per server, made from TEST_DATABASE_URL
 * and dropped afterwards, so runs and files never see each other's rows.
 * Empty unless `migratedInto` names the server's DATA_DIR: then it starts with the run's
 * migrated schema, so the server's own migrator finds nothing to do. Without a migrated
 * schema made for the run (a project without the setup), it starts empty as before.
 */
export async function createTestDatabase(
  options: { migratedInto?: string } = {},
): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  if (process.env.TEST_DB !== 'postgres') {
    const migratedFile = process.env[MIGRATED_SQLITE_FILE];
    if (options.migratedInto && migratedFile) await copyFile(migratedFile, path.join(options.migratedInto, SQLITE_FILE_NAME));
    return { url: undefined, drop: async () => {} };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  return createPostgresDatabase(adminUrl, options.migratedInto ? process.env[MIGRATED_POSTGRES_TEMPLATE] : undefined);
}

export async function withClient(url: string, work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}
