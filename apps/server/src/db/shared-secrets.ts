import type { Kysely } from 'kysely';
import type { Clock } from '../lib/clock.ts';
import type { SharedSecrets } from '../lib/secrets.ts';
import type { Database } from './schema.ts';

/**
 * Secrets in the shared_secrets table. Insert-if-absent, then read: nodes starting at once
 * all insert, one row wins (the others' inserts do nothing once it is committed) and every
 * node reads that one.
 */
export function createSharedSecrets(db: Kysely<Database>, clock: Clock): SharedSecrets {
  return {
    async keepFirst(name, value) {
      await db
        .insertInto('shared_secrets')
        .values({ name, value, created_at: clock.now().toISOString() })
        .onConflict((conflict) => conflict.column('name').doNothing())
        .execute();
      const kept = await db.selectFrom('shared_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
      return kept.value;
    },
  };
}
