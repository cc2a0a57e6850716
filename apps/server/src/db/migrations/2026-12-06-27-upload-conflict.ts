import type { Kysely } from 'kysely';

/**
 * A tus upload keeps what its client chose for a name the folder already holds (the
 * `conflict` metadata: replace, keep-both, fail; docs/decisions/0050-name-clashes.md),
 * applied when its last byte lands, requests after its creation. Null: the plan's default.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('resumable_uploads').addColumn('conflict', 'varchar(16)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('resumable_uploads').dropColumn('conflict').execute();
}
