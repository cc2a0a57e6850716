import type { Kysely } from 'kysely';

/**
 * Single sign-on with OpenID Connect (issue 40, docs/decisions/0064-single-sign-on.md).
 * - `single_sign_on_links`: the provider's (issuer, subject) names one account, for good.
 * - `single_sign_on_flows`: a sign-in under way (state, nonce, PKCE verifier), kept in the
 *   database so the provider may send the browser back to any node; single use, 5 minutes.
 * - `single_sign_on_handoffs`: the one-time code the callback gives the web app to fetch its
 *   session token with (the token itself never goes in a URL); single use, one minute, and
 *   only by the browser whose flow it ends (`browser_hash`: the flow cookie's id, hashed).
 * - users.password_set: 0 for an account made through the provider until a password is
 *   set; its hash is random and unusable. A column with a default: no rebuild of users.
 * - users.single_sign_on_operator: 1 while the provider's last sign-in put the user in OIDC_ADMIN_GROUP.
 * - sessions.reauthenticated_at: when the provider last asked this session's user to sign in
 *   again, which stands in for the password an account without one cannot type.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('password_set', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('single_sign_on_operator', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('sessions').addColumn('reauthenticated_at', 'varchar(32)').execute();
  await db.schema
    .createTable('single_sign_on_links')
    .addColumn('issuer', 'varchar(255)', (col) => col.notNull())
    .addColumn('subject', 'varchar(255)', (col) => col.notNull())
    .addColumn('user_id', 'varchar(64)', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'varchar(320)', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('last_used_at', 'varchar(32)', (col) => col.notNull())
    .addPrimaryKeyConstraint('single_sign_on_links_pk', ['issuer', 'subject'])
    .execute();
  await db.schema.createIndex('single_sign_on_links_user_idx').on('single_sign_on_links').column('user_id').execute();
  await db.schema
    .createTable('single_sign_on_flows')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('state', 'varchar(128)', (col) => col.notNull())
    .addColumn('nonce', 'varchar(128)', (col) => col.notNull())
    .addColumn('code_verifier', 'varchar(128)', (col) => col.notNull())
    .addColumn('next_path', 'varchar(512)', (col) => col.notNull())
    .addColumn('reauth_session_id', 'varchar(64)')
    .addColumn('expires_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('single_sign_on_flows_expiry_idx').on('single_sign_on_flows').column('expires_at').execute();
  await db.schema
    .createTable('single_sign_on_handoffs')
    .addColumn('code_hash', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('user_id', 'varchar(64)', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('browser_hash', 'varchar(64)', (col) => col.notNull())
    .addColumn('expires_at', 'varchar(32)', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['single_sign_on_handoffs', 'single_sign_on_flows', 'single_sign_on_links'])
    await db.schema.dropTable(table).execute();
  await db.schema.alterTable('sessions').dropColumn('reauthenticated_at').execute();
  await db.schema.alterTable('users').dropColumn('single_sign_on_operator').execute();
  await db.schema.alterTable('users').dropColumn('password_set').execute();
}
