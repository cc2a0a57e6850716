import { type Kysely, type Migration, sql } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

/** What the operator console's user search matches: one text per user, lower-cased (the query uses the same expression). */
const SEARCH_TEXT = sql.raw(`lower(email || ' ' || first_name || ' ' || last_name)`);

/**
 * The operator console (docs/decisions/0029-operator-console.md): suspension, the last
 * sign-in, a role kept in the database, complimentary plans' reason and grantor, the
 * append-only audit log, and the indexes that keep the user list fast with 100,000 accounts.
 */
async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('users').addColumn('suspended_at', 'varchar(32)').execute();
  // Never null, so it sorts and pages like any key: every account signed in when it registered.
  await db.schema
    .alterTable('users')
    .addColumn('last_sign_in_at', 'varchar(32)', (col) => col.notNull().defaultTo(''))
    .execute();
  await sql`UPDATE users SET last_sign_in_at = coalesce((SELECT max(created_at) FROM sessions WHERE sessions.user_id = users.id), created_at)`.execute(
    db,
  );
  /** `admin` when granted with `npm run admin -- grant`; ADMIN_EMAILS needs no row. */
  await db.schema
    .alterTable('users')
    .addColumn('role', 'varchar(16)', (col) => col.notNull().defaultTo('user'))
    .execute();

  await db.schema.alterTable('subscriptions').addColumn('grant_reason', 'text').execute();
  await db.schema.alterTable('subscriptions').addColumn('granted_by', 'varchar(64)').execute();

  await db.schema
    .createTable('admin_audit')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    // No foreign keys: an entry outlives the operator and the user it names.
    .addColumn('admin_id', 'varchar(64)')
    .addColumn('action', 'varchar(32)', (col) => col.notNull())
    .addColumn('target_id', 'varchar(64)', (col) => col.notNull())
    /** JSON: the target's and operator's addresses then, the reason, the plan and its end. */
    .addColumn('details', 'text', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('admin_audit_created_idx').on('admin_audit').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('admin_audit_target_idx').on('admin_audit').columns(['target_id', 'created_at', 'id']).execute();

  // The user list's sort orders, each ending with id so equal values page stably.
  await db.schema.createIndex('users_created_idx').on('users').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('users_storage_idx').on('users').columns(['storage_used', 'id']).execute();
  await db.schema.createIndex('users_last_sign_in_idx').on('users').columns(['last_sign_in_at', 'id']).execute();
  await db.schema.createIndex('users_plan_created_idx').on('users').columns(['plan_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('subscriptions_status_idx').on('subscriptions').columns(['status', 'provider']).execute();
  await db.schema.createIndex('storage_daily_day_idx').on('storage_daily').columns(['day']).execute();
  // Every account's storage per day, written with the daily figures: the overview's chart
  // reads 90 rows instead of summing a row per user per day.
  await db.schema
    .createTable('storage_daily_totals')
    .addColumn('day', 'varchar(10)', (col) => col.primaryKey())
    .addColumn('bytes', 'bigint', (col) => col.notNull())
    .execute();
  await sql`INSERT INTO storage_daily_totals (day, bytes) SELECT day, sum(bytes) FROM storage_daily GROUP BY day`.execute(db);
  await db.schema.createIndex('invoices_created_idx').on('invoices').columns(['created_at']).execute();

  if (dialect === 'postgres') {
    // Trigram index for "contains" search when the server has pg_trgm (Debian's PostgreSQL
    // does); without it the search still works, by scanning. The block is its own
    // subtransaction, so a refused extension does not fail the migration.
    await sql`DO $$ BEGIN
        CREATE EXTENSION IF NOT EXISTS pg_trgm;
      EXCEPTION WHEN others THEN
        RAISE NOTICE 'pg_trgm is not available: user search scans';
      END $$`.execute(db);
    await sql`DO $$ BEGIN
        IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
          CREATE INDEX users_search_trgm_idx ON users USING gin ((${SEARCH_TEXT}) gin_trgm_ops);
        END IF;
      END $$`.execute(db);
  }
}

async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS users_search_trgm_idx`.execute(db);
  for (const index of [
    'users_created_idx',
    'users_storage_idx',
    'users_last_sign_in_idx',
    'users_plan_created_idx',
    'subscriptions_status_idx',
    'storage_daily_day_idx',
    'invoices_created_idx',
  ]) {
    await db.schema.dropIndex(index).execute();
  }
  await db.schema.dropTable('storage_daily_totals').execute();
  await db.schema.dropTable('admin_audit').execute();
  await db.schema.alterTable('subscriptions').dropColumn('granted_by').execute();
  await db.schema.alterTable('subscriptions').dropColumn('grant_reason').execute();
  for (const column of ['role', 'last_sign_in_at', 'suspended_at']) await db.schema.alterTable('users').dropColumn(column).execute();
}

export function operatorConsoleMigration(dialect: Dialect): Migration {
  return { up: (db) => up(db, dialect), down };
}
