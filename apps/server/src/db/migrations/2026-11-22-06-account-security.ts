import type { Kysely } from 'kysely';

/**
 * Two-factor sign-in (a TOTP secret, pending until confirmed; one-time recovery codes
 * stored hashed), the activity log the Profile page shows, and in-app notifications.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('totp_secret', 'text').execute();
  await db.schema.alterTable('users').addColumn('totp_pending_secret', 'text').execute();

  await db.schema
    .createTable('recovery_codes')
    .addColumn('user_id', 'varchar(64)', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'varchar(64)', (col) => col.notNull())
    .addColumn('used_at', 'varchar(32)')
    .addPrimaryKeyConstraint('recovery_codes_pkey', ['user_id', 'code_hash'])
    .execute();

  await db.schema
    .createTable('activity')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('user_id', 'varchar(64)', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'varchar(32)', (col) => col.notNull())
    /** JSON: what the entry names (a file, a device, a plan). */
    .addColumn('details', 'text', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('activity_user_idx').on('activity').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('user_id', 'varchar(64)', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'varchar(32)', (col) => col.notNull())
    .addColumn('details', 'text', (col) => col.notNull())
    .addColumn('read_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('notifications_user_idx').on('notifications').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notifications').execute();
  await db.schema.dropTable('activity').execute();
  await db.schema.dropTable('recovery_codes').execute();
  await db.schema.alterTable('users').dropColumn('totp_pending_secret').execute();
  await db.schema.alterTable('users').dropColumn('totp_secret').execute();
}
