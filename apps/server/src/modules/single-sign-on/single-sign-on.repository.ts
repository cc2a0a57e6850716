import type { Kysely } from 'kysely';
import type { Database, SingleSignOnFlowsTable, SingleSignOnLinksTable } from '../../db/schema.ts';

export type LinkRow = SingleSignOnLinksTable;
export type FlowRow = SingleSignOnFlowsTable;

/** Links to the provider, sign-ins under way and their one-time codes: queries only. */
export function createSingleSignOnRepository(db: Kysely<Database>) {
  return {
    findLink(issuer: string, subject: string): Promise<LinkRow | undefined> {
      return db
        .selectFrom('single_sign_on_links')
        .selectAll()
        .where('issuer', '=', issuer)
        .where('subject', '=', subject)
        .executeTakeFirst();
    },

    findLinkOfUser(userId: string, issuer: string): Promise<LinkRow | undefined> {
      return db
        .selectFrom('single_sign_on_links')
        .selectAll()
        .where('user_id', '=', userId)
        .where('issuer', '=', issuer)
        .executeTakeFirst();
    },

    /** False when the identity is linked already (another sign-in made the link meanwhile). */
    async insertLink(row: LinkRow): Promise<boolean> {
      const result = await db
        .insertInto('single_sign_on_links')
        .values(row)
        .onConflict((conflict) => conflict.columns(['issuer', 'subject']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    /**
     * Links an account whose address nobody had proven until the provider did: whoever
     * registered it may not be its owner, so the password, sessions and app passwords they
     * may hold end with the link, in one transaction (docs/decisions/0064-single-sign-on.md).
     */
    async insertLinkClaimingAccount(row: LinkRow, unusablePasswordHash: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('single_sign_on_links')
          .values(row)
          .onConflict((conflict) => conflict.columns(['issuer', 'subject']).doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) return false;
        await trx
          .updateTable('users')
          .set({ password_hash: unusablePasswordHash, password_set: 0, email_verified_at: row.created_at, updated_at: row.created_at })
          .where('id', '=', row.user_id)
          .execute();
        await trx
          .updateTable('sessions')
          .set({ revoked_at: row.created_at })
          .where('user_id', '=', row.user_id)
          .where('revoked_at', 'is', null)
          .execute();
        await trx.deleteFrom('app_passwords').where('user_id', '=', row.user_id).execute();
        return true;
      });
    },

    /** The address the provider gives now (kept when it gives none), and whether its groups make the user an operator. */
    async touchLink(
      link: Pick<LinkRow, 'issuer' | 'subject' | 'user_id'>,
      email: string | undefined,
      operator: boolean,
      nowIso: string,
    ): Promise<void> {
      await db
        .updateTable('single_sign_on_links')
        .set({ ...(email ? { email } : {}), last_used_at: nowIso })
        .where('issuer', '=', link.issuer)
        .where('subject', '=', link.subject)
        .execute();
      await db
        .updateTable('users')
        .set({ single_sign_on_operator: operator ? 1 : 0 })
        .where('id', '=', link.user_id)
        .execute();
    },

    async insertFlow(row: FlowRow): Promise<void> {
      await db.insertInto('single_sign_on_flows').values(row).execute();
    },

    /**
     * The flow, used up: of two callbacks presenting it at once, on one node or two, only one
     * deletes the row and gets it. Undefined when unknown, used or expired.
     */
    async takeFlow(id: string, nowIso: string): Promise<FlowRow | undefined> {
      const row = await db.selectFrom('single_sign_on_flows').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) return undefined;
      const deleted = await db.deleteFrom('single_sign_on_flows').where('id', '=', id).executeTakeFirst();
      if (Number(deleted.numDeletedRows) !== 1 || row.expires_at <= nowIso) return undefined;
      return row;
    },

    /** Flows begun and never finished: removed once expired, as each new one begins. */
    async deleteExpiredFlows(nowIso: string): Promise<void> {
      await db.deleteFrom('single_sign_on_flows').where('expires_at', '<=', nowIso).execute();
      await db.deleteFrom('single_sign_on_handoffs').where('expires_at', '<=', nowIso).execute();
    },

    async insertHandoff(codeHash: string, userId: string, browserHash: string, expiresAtIso: string): Promise<void> {
      await db
        .insertInto('single_sign_on_handoffs')
        .values({ code_hash: codeHash, user_id: userId, browser_hash: browserHash, expires_at: expiresAtIso })
        .execute();
    },

    /** The user the code was given for, used up; undefined when unknown, used, expired or presented by another browser. */
    async takeHandoff(codeHash: string, browserHash: string, nowIso: string): Promise<string | undefined> {
      const row = await db.selectFrom('single_sign_on_handoffs').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
      if (!row) return undefined;
      const deleted = await db.deleteFrom('single_sign_on_handoffs').where('code_hash', '=', codeHash).executeTakeFirst();
      if (Number(deleted.numDeletedRows) !== 1 || row.expires_at <= nowIso || row.browser_hash !== browserHash) return undefined;
      return row.user_id;
    },

    /** The user of a live session (a re-authentication's), or undefined. */
    async sessionUser(sessionId: string, nowIso: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('sessions')
        .select('user_id')
        .where('id', '=', sessionId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', nowIso)
        .executeTakeFirst();
      return row?.user_id;
    },

    /** Records that the session's user just signed in at the provider again. */
    async setReauthenticated(sessionId: string, nowIso: string): Promise<void> {
      await db.updateTable('sessions').set({ reauthenticated_at: nowIso }).where('id', '=', sessionId).execute();
    },
  };
}

export type SingleSignOnRepository = ReturnType<typeof createSingleSignOnRepository>;
