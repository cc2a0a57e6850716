import type { Kysely } from 'kysely';

/**
 * Shared limits (docs/decisions/0019): the fixed windows of rate limits and failure
 * counters, in the database every node shares when no Redis is configured.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('limit_windows')
    /** The limit's name and what it counts, such as `sign-in:ip:203.0.113.7`. */
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('count', 'integer', (col) => col.notNull())
    .addColumn('ends_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  // Ended windows are swept by their end.
  await db.schema.createIndex('limit_windows_ends_at_idx').on('limit_windows').column('ends_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('limit_windows').execute();
}
