import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A database of its own inside the PostgreSQL server at `adminUrl`, and how to drop it. */
export async function createPostgresDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `cv_test_${randomBytes(6).toString('hex')}`;
  await withClient(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
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
 */
export async function createTestDatabase(): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  if (process.env.TEST_DB !== 'postgres') return { url: undefined, drop: async () => {} };
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  return createPostgresDatabase(adminUrl);
}

async function withClient(url: string, work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}
