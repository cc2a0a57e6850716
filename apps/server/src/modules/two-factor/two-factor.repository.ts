import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** A user's TOTP secret and recovery codes: queries only. */
export function createTwoFactorRepository(db: Kysely<Database>) {
  return {
    async secrets(userId: string): Promise<{ email: string; totp_secret: string | null; totp_pending_secret: string | null } | undefined> {
      return db.selectFrom('users').select(['email', 'totp_secret', 'totp_pending_secret']).where('id', '=', userId).executeTakeFirst();
    },

    async setPending(userId: string, secret: string): Promise<void> {
      await db.updateTable('users').set({ totp_pending_secret: secret }).where('id', '=', userId).execute();
    },

    /** Turns the pending secret on and replaces the recovery codes, in one transaction. */
    async enable(userId: string, secret: string, recoveryCodeHashes: string[], now: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ totp_secret: secret, totp_pending_secret: null, two_factor_enabled: 1, updated_at: now }).where('id', '=', userId).execute();
        await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
        await trx.insertInto('recovery_codes').values(recoveryCodeHashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null }))).execute();
      });
    },

    async disable(userId: string, now: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ totp_secret: null, totp_pending_secret: null, two_factor_enabled: 0, updated_at: now }).where('id', '=', userId).execute();
        await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      });
    },

    /** Uses a recovery code up: true once, false for an unknown or used code. */
    async useRecoveryCode(userId: string, codeHash: string, now: string): Promise<boolean> {
      const result = await db
        .updateTable('recovery_codes')
        .set({ used_at: now })
        .where('user_id', '=', userId)
        .where('code_hash', '=', codeHash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

export type TwoFactorRepository = ReturnType<typeof createTwoFactorRepository>;
