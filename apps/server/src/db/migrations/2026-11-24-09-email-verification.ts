import type { Kysely } from 'kysely';

/**
 * E-mail verification and password recovery: when the user's address was proven (null for
 * every account made before, whose address never was), and the single-use tokens mailed
 * to that address, stored only as SHA-256 hashes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('email_verified_at', 'varchar(32)').execute();

  await db.schema
    .createTable('account_tokens')
    .addColumn('token_hash', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('user_id', 'varchar(64)', (col) => col.notNull().references('users.id').onDelete('cascade'))
    /** verify_email or reset_password. */
    .addColumn('purpose', 'varchar(16)', (col) => col.notNull())
    /** The address the token was mailed to: it proves only that one. */
    .addColumn('email', 'varchar(254)', (col) => col.notNull())
    .addColumn('expires_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('used_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('account_tokens_user_idx').on('account_tokens').columns(['user_id', 'purpose']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('account_tokens').execute();
  await db.schema.alterTable('users').dropColumn('email_verified_at').execute();
}
