import type { Kysely } from 'kysely';
import type { Database, SessionsTable, UsersTable } from '../../db/schema.ts';

export type UserRow = UsersTable;
export type SessionRow = SessionsTable;

/** Users and sessions: queries only, no rules. */
export function createAccountsRepository(db: Kysely<Database>) {
  return {
    findUserByEmail(email: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
    },

    findUserById(id: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Inserts the user; returns false when the e-mail is already registered. */
    async insertUser(user: UserRow): Promise<boolean> {
      const result = await db
        .insertInto('users')
        .values(user)
        .onConflict((conflict) => conflict.column('email').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    async insertSession(session: SessionRow): Promise<void> {
      await db.insertInto('sessions').values(session).execute();
    },

    /** The session if it exists, belongs to the user, is not revoked and not expired. */
    findLiveSession(sessionId: string, userId: string, nowIso: string): Promise<SessionRow | undefined> {
      return db
        .selectFrom('sessions')
        .selectAll()
        .where('id', '=', sessionId)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', nowIso)
        .executeTakeFirst();
    },

    async revokeSession(sessionId: string, nowIso: string): Promise<void> {
      await db
        .updateTable('sessions')
        .set({ revoked_at: nowIso })
        .where('id', '=', sessionId)
        .where('revoked_at', 'is', null)
        .execute();
    },
  };
}

export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
