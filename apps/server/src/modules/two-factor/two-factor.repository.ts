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
        await trx
          .updateTable('users')
          .set({ totp_secret: secret, totp_pending_secret: null, two_factor_enabled: 1, updated_at: now })
          .where('id', '=', userId)
          .execute();
        await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
        await trx
          .insertInto('recovery_codes')
          .values(recoveryCodeHashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null })))
          .execute();
      });
    },

    async disable(userId: string, now: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        // The last step goes with the secret: a new app's first code may share its half-minute.
        await trx
          .updateTable('users')
          .set({ totp_secret: null, totp_pending_secret: null, totp_last_step: null, two_factor_enabled: 0, updated_at: now })
          .where('id', '=', userId)
          .execute();
        await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      });
    },

    /**
     * Records a TOTP time step as used: true when it is newer than the last one, false for
     * a step used already or older. One conditional update, so two servers (or two requests)
     * given the same code cannot both accept it.
     */
    async useTotpStep(userId: string, step: number): Promise<boolean> {
      const result = await db
        .updateTable('users')
        .set({ totp_last_step: step })
        .where('id', '=', userId)
        .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
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
