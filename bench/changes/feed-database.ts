import { randomBytes } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { hs256Key, numericDate, signHs256 } from '../../apps/server/src/lib/hs256-jwt.ts';

/**
 * The server's database opened beside it, for what the change feed's benchmarks seed
 * straight into it: hundreds of verified accounts with a session each (signing up that many
 * through the API would meet its rate limits and hash as many passwords), private shares,
 * and journal entries (bench/README.md says which figures rest on rows inserted directly).
 * Statements are written with `?` placeholders for both dialects.
 */
export interface SeedDatabase {
  dialect: 'sqlite' | 'postgres';
  /** One statement per row, all in one transaction. */
  insertRows(statement: string, rows: unknown[][]): Promise<void>;
  query<T>(statement: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export type DatabaseTarget = { dataDir: string } | { databaseUrl: string };

const numbered = (statement: string) => {
  let index = 0;
  return statement.replace(/\?/g, () => `$${++index}`);
};

export async function openSeedDatabase(target: DatabaseTarget): Promise<SeedDatabase> {
  if ('dataDir' in target) {
    const db = new Database(path.join(target.dataDir, 'cloudvault.sqlite'));
    db.pragma('busy_timeout = 5000');
    return {
      dialect: 'sqlite',
      async insertRows(statement, rows) {
        const insert = db.prepare(statement);
        db.transaction(() => {
          for (const row of rows) insert.run(...row);
        })();
      },
      async query<T>(statement: string, params: unknown[] = []) {
        const prepared = db.prepare(statement);
        return (prepared.reader ? prepared.all(...params) : (prepared.run(...params), [])) as T[];
      },
      async close() {
        db.close();
      },
    };
  }
  const client = new pg.Client({ connectionString: target.databaseUrl });
  await client.connect();
  return {
    dialect: 'postgres',
    async insertRows(statement, rows) {
      const text = numbered(statement);
      await client.query('BEGIN');
      try {
        for (const row of rows) await client.query(text, row);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    },
    async query<T>(statement: string, params: unknown[] = []) {
      return (await client.query(numbered(statement), params)).rows as T[];
    },
    close: () => client.end(),
  };
}

export const newId = () => randomBytes(16).toString('base64url');

/** A signed-in account made by seedAccounts: the bearer token is a real session's. */
export interface FeedAccount {
  userId: string;
  email: string;
  token: string;
}

/** What the server's JWT_SECRET must be for the tokens minted here to be accepted. */
export const newJwtSecret = () => randomBytes(32).toString('hex');

/**
 * `count` verified accounts, each with a live session and its bearer token signed as the
 * server signs them (modules/accounts/session-tokens.ts) with the server's JWT_SECRET.
 */
export async function seedAccounts(db: SeedDatabase, jwtSecret: string, count: number, label: string): Promise<FeedAccount[]> {
  const key = hs256Key(jwtSecret);
  const now = new Date();
  const nowIso = now.toISOString();
  const expires = new Date(now.getTime() + 30 * 24 * 3600 * 1000);
  const accounts = Array.from({ length: count }, (_, index) => ({
    userId: newId(),
    sessionId: newId(),
    email: `${label}-${index}-${randomBytes(3).toString('hex')}@bench.example`,
  }));
  await db.insertRows(
    `INSERT INTO users (id, email, first_name, last_name, password_hash, plan_id, storage_used, two_factor_enabled,
                        email_verified_at, created_at, updated_at)
     VALUES (?, ?, 'Bench', 'Member', 'x', 'FREE', 0, 0, ?, ?, ?)`,
    accounts.map((account) => [account.userId, account.email, nowIso, nowIso, nowIso]),
  );
  await db.insertRows(
    `INSERT INTO sessions (id, user_id, created_at, expires_at, revoked_at, user_agent, ip) VALUES (?, ?, ?, ?, NULL, 'bench', '127.0.0.1')`,
    accounts.map((account) => [account.sessionId, account.userId, nowIso, expires.toISOString()]),
  );
  return accounts.map(({ userId, sessionId, email }) => ({
    userId,
    email,
    token: signHs256({ sid: sessionId, sub: userId, iss: 'cloudvault', iat: numericDate(now), exp: numericDate(expires) }, key),
  }));
}

/** The owner's folder shared privately with each member's (verified) address, as POST /api/shares would. */
export async function shareFolder(db: SeedDatabase, ownerId: string, folderId: string, members: FeedAccount[]): Promise<void> {
  const nowIso = new Date().toISOString();
  await db.insertRows(
    `INSERT INTO shares (id, user_id, kind, file_id, folder_id, token_hash, email, password_hash, expires_at, revoked_at, download_count, created_at)
     VALUES (?, ?, 'private', NULL, ?, NULL, ?, NULL, NULL, NULL, 0, ?)`,
    members.map((member) => [newId(), ownerId, folderId, member.email, nowIso]),
  );
}

/**
 * Journal entries `from`..`to` of an account as uploads write them (op `created`, a file's
 * state: id, name, size, SHA-256, times), the first dated `firstAtMs` and each next one a
 * millisecond later, and its head moved to `to`. Set-based on PostgreSQL; SQLite inserts
 * row by row in one transaction.
 */
export async function fillJournal(db: SeedDatabase, userId: string, from: number, to: number, firstAtMs: number): Promise<void> {
  if (db.dialect === 'postgres') {
    await db.query(
      `INSERT INTO changes (user_id, seq, op, kind, item_id, parent_id, name, share_id, size, content_hash, modified_at, at)
       SELECT ?, g, 'created', 'file', substr(md5(random()::text), 1, 22), NULL, 'photo-' || lpad(g::text, 7, '0') || '.jpg', NULL,
              1000 + g % 5000000, md5(g::text) || md5((g + 1)::text), t.at, t.at
       FROM generate_series(?::int, ?::int) AS g
       CROSS JOIN LATERAL (SELECT to_char(to_timestamp((?::bigint + g - ?::int) / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at) AS t`,
      [userId, from, to, firstAtMs, from],
    );
  } else {
    const rows: unknown[][] = [];
    for (let seq = from; seq <= to; seq++) {
      const at = new Date(firstAtMs + seq - from).toISOString();
      rows.push([
        userId,
        seq,
        newId(),
        `photo-${String(seq).padStart(7, '0')}.jpg`,
        1000 + (seq % 5_000_000),
        randomBytes(32).toString('hex'),
        at,
        at,
      ]);
    }
    await db.insertRows(
      `INSERT INTO changes (user_id, seq, op, kind, item_id, parent_id, name, share_id, size, content_hash, modified_at, at)
       VALUES (?, ?, 'created', 'file', ?, NULL, ?, NULL, ?, ?, ?, ?)`,
      rows,
    );
  }
  await db.query(
    `INSERT INTO change_heads (user_id, seq, pruned_through) VALUES (?, ?, 0)
     ON CONFLICT (user_id) DO UPDATE SET seq = excluded.seq`,
    [userId, to],
  );
}
