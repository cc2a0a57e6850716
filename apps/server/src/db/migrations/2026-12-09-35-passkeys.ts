import type { Kysely } from 'kysely';

/**
 * Passkeys (docs/decisions/0063-passkeys.md).
 * - `passkeys`: a user's WebAuthn credentials. The credential id is unique across users: a
 *   discoverable sign-in finds the account by it alone. The counter can pass 2^31, so bigint.
 * - `passkey_ceremonies`: the challenge of a registration or sign-in under way, in the
 *   database so any node can finish what another started; deleted when used, 5 minutes at most.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('passkeys')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('user_id', 'varchar(64)', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('credential_id', 'varchar(1400)', (col) => col.notNull().unique())
    .addColumn('public_key', 'text', (col) => col.notNull())
    .addColumn('counter', 'bigint', (col) => col.notNull())
    .addColumn('transports', 'varchar(200)', (col) => col.notNull())
    .addColumn('device_type', 'varchar(16)', (col) => col.notNull())
    .addColumn('backed_up', 'integer', (col) => col.notNull())
    .addColumn('name', 'varchar(100)', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('last_used_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('passkeys_user_idx').on('passkeys').columns(['user_id', 'created_at']).execute();
  await db.schema
    .createTable('passkey_ceremonies')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('kind', 'varchar(16)', (col) => col.notNull())
    .addColumn('user_id', 'varchar(64)', (col) => col.references('users.id').onDelete('cascade'))
    .addColumn('challenge', 'varchar(128)', (col) => col.notNull())
    .addColumn('expires_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('passkey_ceremonies_expiry_idx').on('passkey_ceremonies').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('passkey_ceremonies').execute();
  await db.schema.dropTable('passkeys').execute();
}
