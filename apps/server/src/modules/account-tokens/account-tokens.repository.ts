import type { Kysely, Transaction } from 'kysely';
import { recordTreeChanges } from '../../db/change-journal.ts';
import type { AccountTokenPurpose, AccountTokensTable, Database } from '../../db/schema.ts';
import { sharesReachingMember } from '../../db/share-root-changes.ts';

export type AccountTokenRow = AccountTokensTable;

/**
 * An address just verified makes its account a member of the private shares made for that
 * address: their roots enter its change feed, last in the transaction as journal writes are.
 */
async function recordSharesNowSeen(trx: Transaction<Database>, token: AccountTokenRow, nowIso: string): Promise<void> {
  await recordTreeChanges(trx, token.user_id, [], nowIso, await sharesReachingMember(trx, token.user_id, token.email));
}

/**
 * Uses the token up with every other unused token of its user and purpose, inside the
 * caller's transaction; false when it was used (or expired) meanwhile.
 */
async function useUp(trx: Transaction<Database>, token: AccountTokenRow, nowIso: string): Promise<boolean> {
  const claimed = await trx
    .updateTable('account_tokens')
    .set({ used_at: nowIso })
    .where('token_hash', '=', token.token_hash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', nowIso)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return false;
  await trx
    .updateTable('account_tokens')
    .set({ used_at: nowIso })
    .where('user_id', '=', token.user_id)
    .where('purpose', '=', token.purpose)
    .where('used_at', 'is', null)
    .execute();
  return true;
}

/** Tokens mailed to an account's address (verification, password reset): queries only. */
export function createAccountTokensRepository(db: Kysely<Database>) {
  return {
    async insert(row: AccountTokenRow): Promise<void> {
      await db.insertInto('account_tokens').values(row).execute();
    },

    /** Drops the user's tokens of this purpose that can no longer be used, so the table stays small. */
    async deleteSpent(userId: string, purpose: AccountTokenPurpose, nowIso: string): Promise<void> {
      await db
        .deleteFrom('account_tokens')
        .where('user_id', '=', userId)
        .where('purpose', '=', purpose)
        .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', nowIso)]))
        .execute();
    },

    /** The token if it is of this purpose, unused and not expired. */
    findUsable(tokenHash: string, purpose: AccountTokenPurpose, nowIso: string): Promise<AccountTokenRow | undefined> {
      return db
        .selectFrom('account_tokens')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .where('purpose', '=', purpose)
        .where('used_at', 'is', null)
        .where('expires_at', '>', nowIso)
        .executeTakeFirst();
    },

    /**
     * Uses the token up and marks its address verified, in one transaction; false when it
     * was used (or expired) meanwhile. Every other verification token of the user goes with it.
     */
    async verifyEmail(token: AccountTokenRow, nowIso: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        if (!(await useUp(trx, token, nowIso))) return false;
        // Only the address the link was mailed to is proven.
        const verified = await trx
          .updateTable('users')
          .set({ email_verified_at: nowIso, updated_at: nowIso })
          .where('id', '=', token.user_id)
          .where('email', '=', token.email)
          .where('email_verified_at', 'is', null)
          .executeTakeFirst();
        if (Number(verified.numUpdatedRows) > 0) await recordSharesNowSeen(trx, token, nowIso);
        return true;
      });
    },

    /**
     * Uses the token up, sets the new password, signs every session out and, since the link
     * reached the address, marks it verified: all or nothing. False when the token was
     * used (or expired) meanwhile. Every other reset token of the user goes with it, and
     * every app password when asked.
     */
    async resetPassword(
      token: AccountTokenRow,
      passwordHash: string,
      nowIso: string,
      options: { revokeAppPasswords: boolean },
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        if (!(await useUp(trx, token, nowIso))) return false;
        // An account made through single sign-on has a password from now on.
        await trx
          .updateTable('users')
          .set({ password_hash: passwordHash, password_set: 1, updated_at: nowIso })
          .where('id', '=', token.user_id)
          .execute();
        const verified = await trx
          .updateTable('users')
          .set({ email_verified_at: nowIso })
          .where('id', '=', token.user_id)
          .where('email', '=', token.email)
          .where('email_verified_at', 'is', null)
          .executeTakeFirst();
        await trx
          .updateTable('sessions')
          .set({ revoked_at: nowIso })
          .where('user_id', '=', token.user_id)
          .where('revoked_at', 'is', null)
          .execute();
        if (options.revokeAppPasswords) await trx.deleteFrom('app_passwords').where('user_id', '=', token.user_id).execute();
        if (Number(verified.numUpdatedRows) > 0) await recordSharesNowSeen(trx, token, nowIso);
        return true;
      });
    },
  };
}

export type AccountTokensRepository = ReturnType<typeof createAccountTokensRepository>;
