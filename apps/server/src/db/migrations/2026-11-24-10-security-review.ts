import type { Kysely } from 'kysely';

/**
 * The security review (docs/decisions/0014): each user's last TOTP time step that signed
 * in or changed two-factor, so a code is accepted once, on every server sharing the database.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('totp_last_step', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('totp_last_step').execute();
}
