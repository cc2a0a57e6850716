import type { Kysely } from 'kysely';

/**
 * App passwords (docs/decisions/0028-app-passwords.md): the secrets a user gives WebDAV
 * clients instead of the account password, stored only as SHA-256 hashes and deleted with
 * the user.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('app_passwords')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('user_id', 'varchar(64)', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(100)', (col) => col.notNull())
    .addColumn('secret_hash', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('last_used_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('app_passwords_user_idx').on('app_passwords').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('app_passwords').execute();
}
