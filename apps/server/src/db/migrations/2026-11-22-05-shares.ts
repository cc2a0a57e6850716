import type { Kysely } from 'kysely';

/**
 * Shares (links and private shares by e-mail) and the outgoing mail queue. A link's token
 * is never stored: only its SHA-256, so a copy of the database opens no links.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('shares')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('user_id', 'varchar(64)', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(16)', (col) => col.notNull())
    .addColumn('file_id', 'varchar(64)', (col) => col.references('files.id').onDelete('cascade'))
    .addColumn('folder_id', 'varchar(64)', (col) => col.references('folders.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (col) => col.unique())
    .addColumn('email', 'varchar(320)')
    .addColumn('password_hash', 'text')
    .addColumn('expires_at', 'varchar(32)')
    .addColumn('revoked_at', 'varchar(32)')
    .addColumn('download_count', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('shares_user_idx').on('shares').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('shares_email_idx').on('shares').columns(['email']).execute();

  await db.schema
    .createTable('mail_queue')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('recipient', 'varchar(320)', (col) => col.notNull())
    .addColumn('subject', 'text', (col) => col.notNull())
    .addColumn('text_body', 'text', (col) => col.notNull())
    .addColumn('html_body', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('sent_at', 'varchar(32)')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('mail_queue_due_idx').on('mail_queue').columns(['sent_at', 'next_attempt_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mail_queue').execute();
  await db.schema.dropTable('shares').execute();
}
