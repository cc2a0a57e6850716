import type { Kysely } from 'kysely';

/**
 * A limit window used as a lease (the tus upload locks, docs/decisions/0025) names its
 * holder, so that only the holder renews or releases it: a node whose lease lapsed while
 * it stalled must not end or stretch the lease the next node took. Null for counters.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('limit_windows').addColumn('holder', 'varchar(64)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('limit_windows').dropColumn('holder').execute();
}
