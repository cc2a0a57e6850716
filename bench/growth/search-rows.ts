import { randomBytes } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';

// Names `doc-0000042-greenowl.txt`: a number that one name holds, and one of 100 tags
// (10 colours × 10 animals, none inside another) that one name in a hundred holds.
const COLOURS = ['red', 'green', 'blue', 'amber', 'violet', 'silver', 'copper', 'ivory', 'olive', 'coral'];
const ANIMALS = ['fox', 'owl', 'yak', 'emu', 'lynx', 'mole', 'wren', 'ibis', 'newt', 'orca'];

/** The name of the `index`-th file; the SQL of seedPostgres builds the same. */
export const searchName = (index: number) =>
  `doc-${String(index).padStart(7, '0')}-${COLOURS[index % 10]}${ANIMALS[Math.floor(index / 10) % 10]}.txt`;

/** What the series searches for, and how many files match among the first `size`. */
export const SEARCH_TERMS: Array<{ name: string; term: string; hits: (size: number) => number }> = [
  { name: 'one match', term: '0000777-', hits: (size) => (size >= 777 ? 1 : 0) },
  { name: '1 % match', term: 'REDFOX', hits: (size) => Math.floor(size / 100) },
  { name: 'all match', term: 'doc-', hits: (size) => size },
  { name: 'none match', term: 'zqxj', hits: () => 0 },
];

const newId = () => randomBytes(16).toString('base64url');

/**
 * Adds files `from`..`to` (1-based, inclusive) to the user's root folder, straight into
 * the server's SQLite database, as scenarios/listing.ts does: valid rows, no blobs.
 */
export function seedSqlite(dataDir: string, userId: string, from: number, to: number): void {
  const db = new Database(path.join(dataDir, 'cloudvault.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    const insert = db.prepare(
      // The names are ASCII, so their key (contract nameKey) is lower(name).
      `INSERT INTO files (id, user_id, folder_id, name, name_key, mimetype, category, size, sha256, crc32, blob_key, created_at, updated_at, deleted_at, trashed_root)
       VALUES (?, ?, NULL, ?, lower(?), 'text/plain', 'document', ?, ?, 0, ?, ?, ?, NULL, 0)`,
    );
    const now = new Date().toISOString();
    const sha256 = 'ab'.repeat(32);
    db.transaction(() => {
      for (let index = from; index <= to; index++)
        insert.run(newId(), userId, searchName(index), searchName(index), 1000, sha256, newId(), now, now);
    })();
    db.exec('ANALYZE');
  } finally {
    db.close();
  }
}

/** The same rows on PostgreSQL, set-based: a million take about a minute here. */
export async function seedPostgres(databaseUrl: string, userId: string, from: number, to: number): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const array = (words: string[]) => `ARRAY[${words.map((word) => `'${word}'`).join(',')}]`;
    await client.query(
      // The names are ASCII, so their key (contract nameKey) is lower(name).
      `INSERT INTO files (id, user_id, folder_id, name, name_key, mimetype, category, size, sha256, crc32, blob_key, created_at, updated_at, deleted_at, trashed_root)
       SELECT 's' || g || '-' || $1, $1, NULL, n.name, lower(n.name),
              'text/plain', 'document', 1000, repeat('ab', 32), 0, 'search-' || g || '-' || $1,
              to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), NULL, 0
       FROM generate_series($2::int, $3::int) AS g
       CROSS JOIN LATERAL (SELECT 'doc-' || lpad(g::text, 7, '0') || '-' || (${array(COLOURS)})[1 + g % 10] || (${array(ANIMALS)})[1 + (g / 10) % 10] || '.txt' AS name) AS n`,
      [userId, from, to],
    );
    // As autovacuum leaves a table between bursts of writes: statistics, and the visibility
    // map that lets a search read names from the index alone (decision 0032, addendum).
    await client.query('VACUUM ANALYZE files');
  } finally {
    await client.end();
  }
}
