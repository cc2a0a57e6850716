import type { Kysely } from 'kysely';
import { recordShareRoot } from '../../db/share-root-changes.ts';
import type { Database, SharesTable } from '../../db/schema.ts';

/** What a private share grants its member, as stored. */
export type MemberGrant = Pick<SharesTable, 'role' | 'may_reshare'>;

/** Private shares from their member's side, and the grant of one: queries only. */
export function createShareMembersRepository(db: Kysely<Database>) {
  return {
    /** Sets what an active private share of the owner's grants; false when there is none. */
    async setGrant(ownerId: string, id: string, grant: MemberGrant): Promise<boolean> {
      const result = await db
        .updateTable('shares')
        .set(grant)
        .where('id', '=', id)
        .where('user_id', '=', ownerId)
        .where('kind', '=', 'private')
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /**
     * Ends an active private share addressed to this e-mail, as the owner's revoke does: its
     * root leaves the member's change feed in the same transaction. False when there is none.
     */
    leave(id: string, email: string, now: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('shares')
          .set({ revoked_at: now })
          .where('id', '=', id)
          .where('kind', '=', 'private')
          .where('email', '=', email)
          .where('revoked_at', 'is', null)
          .returningAll()
          .executeTakeFirst();
        if (!row) return false;
        await recordShareRoot(trx, row, 'deleted', now);
        return true;
      });
    },
  };
}

export type ShareMembersRepository = ReturnType<typeof createShareMembersRepository>;
