import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type PG from 'pg';
import type { Database } from './schema.ts';
import { trackChanges } from './change-stamp.ts';
import { cachingStatements } from './statement-cache.ts';
import { type ChangeListener, postgresChangeSignals, sqliteChangeSignals, type StopListening } from './change-signals.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Answers when the database takes a query; used by the health check. */
  ping(): Promise<void>;
  /**
   * Differs after any committed change to the database (db/change-stamp.ts), for answers
   * cached in this process; null with PostgreSQL, where other nodes write without telling.
   */
  changeStamp(): string | null;
  /** Calls `listener` when the change journal has new entries, on any node (db/change-signals.ts). */
  listenForChanges(listener: ChangeListener): StopListening;
  /** PostgreSQL's connection pool now (for metrics); undefined with SQLite, which has one connection. */
  poolStats(): PoolStats | undefined;
  close(): Promise<void>;
}

export interface PoolStats {
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
}

/** Where database trouble outside any request (an idle connection dropping) is reported. */
export type DatabaseErrorLog = (error: Error) => void;

/** SQLite in dataDir by default; PostgreSQL when a URL is given. */
export function openDatabase(options: {
  databaseUrl: string | undefined;
  dataDir: string;
  onIdleError?: DatabaseErrorLog;
}): DatabaseHandle {
  const onIdleError = options.onIdleError ?? ((error: Error) => console.error('database connection error', error));
  const { db, pool, changeStamp, signals } = options.databaseUrl
    ? { ...openPostgres(options.databaseUrl, onIdleError), changeStamp: () => null }
    : { ...openSqlite(options.dataDir), pool: undefined };
  return {
    db,
    changeStamp,
    listenForChanges: (listener) => signals.listen(listener),
    dialect: options.databaseUrl ? 'postgres' : 'sqlite',
    poolStats: () => (pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : undefined),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}

/** Distinct queries kept prepared; the server's routes and jobs make a few hundred. */
const STATEMENT_CACHE_SIZE = 500;

function openSqlite(dataDir: string): { db: Kysely<Database>; changeStamp: () => string; signals: ReturnType<typeof sqliteChangeSignals> } {
  mkdirSync(dataDir, { recursive: true });
  const database = new SqliteDatabase(path.join(dataDir, 'cloudvault.sqlite'));
  // WAL lets readers run while a write is in progress; busy_timeout waits out a writer
  // instead of failing; foreign keys are off by default in SQLite.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  // Every statement Kysely runs passes the change tracker first, then the cache.
  const changes = trackChanges(cachingStatements(database, STATEMENT_CACHE_SIZE), database);
  return {
    db: new Kysely<Database>({ dialect: new SqliteDialect({ database: changes.database }) }),
    changeStamp: changes.stamp,
    signals: sqliteChangeSignals(database),
  };
}

/**
 * How long a request waits for a new database connection: a database that accepts no
 * connection fails the request with 503 within this, rather than holding it (docs/decisions/0041).
 */
const CONNECT_TIMEOUT_MS = 3_000;

/** The same error reaches the query that was running on the client, so it is handled there. */
function ignoreLentClientError(): void {}

function openPostgres(
  connectionString: string,
  onIdleError: DatabaseErrorLog,
): { db: Kysely<Database>; pool: PG.Pool; signals: ReturnType<typeof postgresChangeSignals> } {
  // Loaded only when configured: the driver costs about 15 MB of memory that SQLite setups never use.
  const pg = createRequire(import.meta.url)('pg') as typeof PG;
  // PostgreSQL sends bigint (sizes, counts) as strings; every size we store is below 2^53.
  pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
  const pool = new pg.Pool({ connectionString, max: 10, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // An idle connection that drops (a database restart, an admin command) is reported on
  // the pool; unheard, that event would crash the process. The pool replaces the client.
  pool.on('error', onIdleError);
  // A connection lent out drops too: its running query rejects with the error (the request
  // answers 503), and the client also emits it, with no pool listener on a lent client, which
  // unheard would end the process. The pool discards the client when it is given back.
  pool.on('connect', (client) => client.on('error', ignoreLentClientError));
  return {
    db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }),
    pool,
    signals: postgresChangeSignals(pg, connectionString, onIdleError),
  };
}
