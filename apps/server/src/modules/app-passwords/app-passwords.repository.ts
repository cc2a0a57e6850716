import type { Kysely } from 'kysely';
import type { AppPasswordsTable, Database } from '../../db/schema.ts';

export type AppPasswordRow = AppPasswordsTable;

/** App passwords: queries only. */
export function createAppPasswordsRepository(db: Kysely<Database>) {
  return {
    async insert(row: AppPasswordRow): Promise<void> {
      await db.insertInto('app_passwords').values(row).execute();
    },

    /** The user's app passwords, newest first (never the hashes). */
    listByUser(userId: string): Promise<Array<Omit<AppPasswordRow, 'secret_hash'>>> {
      return db
        .selectFrom('app_passwords')
        .select(['id', 'user_id', 'name', 'created_at', 'last_used_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute();
    },

    async countByUser(userId: string): Promise<number> {
      const row = await db
        .selectFrom('app_passwords')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /** The app password with this hash, if it belongs to the user (read fresh: a revoke is seen at once). */
    findForUser(userId: string, secretHash: string): Promise<Pick<AppPasswordRow, 'id' | 'last_used_at'> | undefined> {
      return db
        .selectFrom('app_passwords')
        .select(['id', 'last_used_at'])
        .where('secret_hash', '=', secretHash)
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },

    /** Sets last_used_at unless another request set it after `staleBefore`: one write a minute at most. */
    async touch(id: string, nowIso: string, staleBeforeIso: string): Promise<void> {
      await db
        .updateTable('app_passwords')
        .set({ last_used_at: nowIso })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', staleBeforeIso)]))
        .execute();
    },

    /**
     * Deletes the user's app password and, in the same transaction, revokes the sync
     * sessions opened with it; false when the user has none with this id.
     */
    async delete(userId: string, id: string, nowIso: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const result = await trx.deleteFrom('app_passwords').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) return false;
        await trx
          .updateTable('sessions')
          .set({ revoked_at: nowIso })
          .where('app_password_id', '=', id)
          .where('user_id', '=', userId)
          .where('revoked_at', 'is', null)
          .execute();
        return true;
      });
    },
  };
}

export type AppPasswordsRepository = ReturnType<typeof createAppPasswordsRepository>;
