import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import { lockUsers } from '../../db/locks.ts';
import type { Database } from '../../db/schema.ts';
import type { DavLockRow } from './dav.repository.ts';

/** Whether a lock was granted, or why not. */
export type GrantOutcome = 'granted' | 'conflict' | 'too-many-locks';

/** Escapes LIKE's wildcards so a path matches only itself as a prefix. */
const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/** Granting WebDAV locks, within the account's bound of locks. */
export function createDavLocksRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    /**
     * Inserts the lock unless `conflicts` finds one among the unexpired locks on its path,
     * its ancestors or (for a depth-infinity lock) under it, or the user holds `maxLocks`
     * unexpired locks already; read in a transaction that locks the user first, so two nodes
     * granting locks at once take turns.
     */
    async insertLock(
      lock: DavLockRow,
      ancestors: readonly string[],
      conflicts: (existing: DavLockRow[]) => boolean,
      maxLocks: number,
    ): Promise<GrantOutcome> {
      return db.transaction().execute(async (trx) => {
        await lockUsers(trx, dialect, [lock.user_id]);
        await trx.deleteFrom('dav_locks').where('user_id', '=', lock.user_id).where('expires_at', '<=', lock.created_at).execute();
        const existing = await trx
          .selectFrom('dav_locks')
          .selectAll()
          .where('user_id', '=', lock.user_id)
          .where((eb) =>
            eb.or([
              eb('path_key', 'in', [...ancestors, lock.path_key]),
              eb(sql<string>`path_key`, 'like', sql<string>`${likePrefix(lock.path_key === '/' ? '/' : `${lock.path_key}/`)} ESCAPE '\\'`),
            ]),
          )
          .execute();
        if (conflicts(existing)) return 'conflict';
        const held = await trx
          .selectFrom('dav_locks')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('user_id', '=', lock.user_id)
          .executeTakeFirstOrThrow();
        if (Number(held.count) >= maxLocks) return 'too-many-locks';
        await trx.insertInto('dav_locks').values(lock).execute();
        return 'granted';
      });
    },
  };
}

export type DavLocksRepository = ReturnType<typeof createDavLocksRepository>;
