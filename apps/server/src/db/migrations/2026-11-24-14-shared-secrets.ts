import type { Kysely } from 'kysely';

/**
 * Running several nodes on one database (docs/decisions/0020): secrets every node must
 * share (the token signing key) are created once, here, instead of per node on its disk;
 * and each queued message keeps the Message-ID it was given when queued, so a message sent
 * again after a crash carries the same one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('shared_secrets')
    .addColumn('name', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('value', 'text', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema.alterTable('mail_queue').addColumn('message_id', 'varchar(320)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_queue').dropColumn('message_id').execute();
  await db.schema.dropTable('shared_secrets').execute();
}
