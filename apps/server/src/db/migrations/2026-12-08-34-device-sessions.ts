import { type Kysely, sql } from 'kysely';

/**
 * The sync client (issue 39).
 * - Its session is opened with an app password (POST /api/auth/device-session) and lives
 *   only as long as that app password: `app_password_id` names it, so revoking the app
 *   password revokes its sessions in the same transaction. Null: a sign-in session.
 * - GET /api/sync/tree reads an account's live rows a page at a time in id order: one line
 *   per item even while the tree changes under the read (a name order would list a renamed
 *   item twice). No index led with (user_id, id) over live rows.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('app_password_id', 'varchar(64)').execute();
  await db.schema.createIndex('sessions_app_password_idx').on('sessions').column('app_password_id').execute();
  await sql`CREATE INDEX files_live_owner_id_idx ON files (user_id, id) WHERE deleted_at IS NULL`.execute(db);
  await sql`CREATE INDEX folders_live_owner_id_idx ON folders (user_id, id) WHERE deleted_at IS NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of ['folders_live_owner_id_idx', 'files_live_owner_id_idx', 'sessions_app_password_idx'])
    await db.schema.dropIndex(index).execute();
  await db.schema.alterTable('sessions').dropColumn('app_password_id').execute();
}
