import type { Kysely } from 'kysely';

/**
 * The job runner (docs/decisions/0017-job-runner.md): a renewal run claims the subscriptions
 * it renews until this time, so two nodes running renewals at once never both take one.
 * (pg-boss keeps its own tables in its own schema; it installs them itself.)
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('subscriptions').addColumn('renewal_claimed_until', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('subscriptions').dropColumn('renewal_claimed_until').execute();
}
