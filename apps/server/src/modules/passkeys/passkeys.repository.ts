import type { Kysely } from 'kysely';
import type { Database, PasskeyCeremoniesTable, PasskeysTable } from '../../db/schema.ts';

export type PasskeyRow = PasskeysTable;
export type PasskeyCeremonyRow = PasskeyCeremoniesTable;
/** A passkey as listed: never the key. */
export type ListedPasskey = Pick<PasskeyRow, 'id' | 'name' | 'created_at' | 'last_used_at' | 'backed_up'>;

const LISTED = ['id', 'name', 'created_at', 'last_used_at', 'backed_up'] as const;

/** Passkeys and their ceremonies: queries only. */
export function createPasskeysRepository(db: Kysely<Database>) {
  return {
    /** Stores a ceremony's challenge, and drops the ones that expired on the way (nothing else cleans them). */
    async insertCeremony(row: PasskeyCeremonyRow, nowIso: string): Promise<void> {
      await db.deleteFrom('passkey_ceremonies').where('expires_at', '<=', nowIso).execute();
      await db.insertInto('passkey_ceremonies').values(row).execute();
    },

    /**
     * Takes the ceremony out: one DELETE ... RETURNING, so of two requests carrying the same
     * ceremony (a replay, or two nodes at once) exactly one gets it. Expiry is the caller's to check.
     */
    takeCeremony(id: string, kind: string): Promise<PasskeyCeremonyRow | undefined> {
      return db.deleteFrom('passkey_ceremonies').where('id', '=', id).where('kind', '=', kind).returningAll().executeTakeFirst();
    },

    /** Inserts the passkey; false when that credential is registered already (to this account or another). */
    async insert(row: PasskeyRow): Promise<boolean> {
      const result = await db
        .insertInto('passkeys')
        .values(row)
        .onConflict((conflict) => conflict.column('credential_id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    /** The user's passkeys, oldest first. */
    listByUser(userId: string): Promise<ListedPasskey[]> {
      return db.selectFrom('passkeys').select(LISTED).where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
    },

    /** Credential ids and transports of the user's passkeys: the browser is told not to make a second one on the same authenticator. */
    credentialsOf(userId: string): Promise<Array<Pick<PasskeyRow, 'credential_id' | 'transports'>>> {
      return db.selectFrom('passkeys').select(['credential_id', 'transports']).where('user_id', '=', userId).execute();
    },

    async countByUser(userId: string): Promise<number> {
      const row = await db
        .selectFrom('passkeys')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    findByCredentialId(credentialId: string): Promise<PasskeyRow | undefined> {
      return db.selectFrom('passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();
    },

    /**
     * Records a sign-in: the new counter, backup state and time, only if the counter is still
     * the one the assertion was checked against. False when another sign-in moved it first:
     * two assertions with one counter value are a cloned authenticator or a replay.
     */
    async recordUse(
      id: string,
      expectedCounter: number,
      use: { counter: number; backed_up: number; device_type: string; last_used_at: string },
    ): Promise<boolean> {
      const result = await db
        .updateTable('passkeys')
        .set(use)
        .where('id', '=', id)
        .where('counter', '=', expectedCounter)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async rename(userId: string, id: string, name: string): Promise<ListedPasskey | undefined> {
      await db.updateTable('passkeys').set({ name }).where('id', '=', id).where('user_id', '=', userId).execute();
      return db.selectFrom('passkeys').select(LISTED).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    },

    /** False when the user has no passkey with this id. */
    async delete(userId: string, id: string): Promise<boolean> {
      const result = await db.deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export type PasskeysRepository = ReturnType<typeof createPasskeysRepository>;
