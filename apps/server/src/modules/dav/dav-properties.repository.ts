import { type Kysely, sql, type Transaction } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import { lockUsers } from '../../db/locks.ts';
import type { Database } from '../../db/schema.ts';
import type { DeadProperty } from './dav.repository.ts';

/** How many dead properties a resource and an account may keep. */
export interface PropertyBounds {
  perResource: number;
  perAccount: number;
}

/** Whether a change of dead properties was kept, or which bound it would have passed (nothing changed then). */
export type PropertiesOutcome = 'stored' | 'resource-full' | 'account-full';

type PropertyChange = { set: DeadProperty } | { remove: { namespace: string; name: string } };

/** Thrown inside a transaction to roll it back with an outcome. */
class BoundPassed extends Error {
  constructor(readonly outcome: Exclude<PropertiesOutcome, 'stored'>) {
    super(outcome);
  }
}

async function countOf(trx: Transaction<Database>, userId: string, resourceId?: string): Promise<number> {
  const row = await trx
    .selectFrom('dav_properties')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .$if(resourceId !== undefined, (query) => query.where('resource_id', '=', resourceId as string))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** In UTF-8 bytes, whichever the database. */
const bytesOf = (dialect: Dialect, column: string) =>
  dialect === 'postgres' ? sql`octet_length(${sql.ref(column)})` : sql`length(CAST(${sql.ref(column)} AS BLOB))`;

/**
 * WebDAV's dead properties within their bounds: each change counted in the transaction
 * that makes it, the user locked first, so two nodes at once cannot pass a bound together.
 */
export function createDavPropertiesRepository(db: Kysely<Database>, dialect: Dialect) {
  /** Runs the writes, then rolls them back when the resource or the account holds more than its bound. */
  async function withinBounds(
    userId: string,
    bounds: PropertyBounds,
    resourceId: string,
    write: (trx: Transaction<Database>) => Promise<void>,
  ): Promise<PropertiesOutcome> {
    try {
      await db.transaction().execute(async (trx) => {
        await lockUsers(trx, dialect, [userId]);
        await write(trx);
        if ((await countOf(trx, userId, resourceId)) > bounds.perResource) throw new BoundPassed('resource-full');
        if ((await countOf(trx, userId)) > bounds.perAccount) throw new BoundPassed('account-full');
      });
      return 'stored';
    } catch (error) {
      if (error instanceof BoundPassed) return error.outcome;
      throw error;
    }
  }

  return {
    /** Sets and removes dead properties in one transaction: PROPPATCH is all or nothing. */
    updateProperties(
      userId: string,
      resource: { id: string; kind: 'root' | 'file' | 'folder' },
      changes: readonly PropertyChange[],
      bounds: PropertyBounds,
    ): Promise<PropertiesOutcome> {
      return withinBounds(userId, bounds, resource.id, async (trx) => {
        for (const change of changes) {
          const { namespace, name } = 'set' in change ? change.set : change.remove;
          await trx
            .deleteFrom('dav_properties')
            .where('user_id', '=', userId)
            .where('resource_id', '=', resource.id)
            .where('namespace', '=', namespace)
            .where('name', '=', name)
            .execute();
          if ('set' in change) {
            await trx
              .insertInto('dav_properties')
              .values({
                user_id: userId,
                resource_id: resource.id,
                file_id: resource.kind === 'file' ? resource.id : null,
                folder_id: resource.kind === 'folder' ? resource.id : null,
                ...change.set,
              })
              .execute();
          }
        }
      });
    },

    /** Copies a resource's dead properties onto its copy, within the account's bound. */
    copyProperties(
      userId: string,
      fromId: string,
      to: { id: string; kind: 'file' | 'folder' },
      bounds: PropertyBounds,
    ): Promise<PropertiesOutcome> {
      return withinBounds(userId, bounds, to.id, async (trx) => {
        const rows = await trx
          .selectFrom('dav_properties')
          .select(['namespace', 'name', 'value'])
          .where('user_id', '=', userId)
          .where('resource_id', '=', fromId)
          .execute();
        if (rows.length === 0) return;
        await trx
          .insertInto('dav_properties')
          .values(
            rows.map((row) => ({
              ...row,
              user_id: userId,
              resource_id: to.id,
              file_id: to.kind === 'file' ? to.id : null,
              folder_id: to.kind === 'folder' ? to.id : null,
            })),
          )
          .execute();
      });
    },

    /**
     * The UTF-8 bytes of the dead properties a listing would show: the resource's own and,
     * with `membersOf` (a folder's id, or null for My Files), its live members'. Reads at most
     * the account's bounded number of properties.
     */
    async listingBytes(userId: string, resourceId: string, membersOf: string | null | undefined): Promise<number> {
      const size = sql`${bytesOf(dialect, 'p.namespace')} + ${bytesOf(dialect, 'p.name')} + ${bytesOf(dialect, 'p.value')}`;
      const parent = membersOf ?? '';
      const row = await db
        .selectFrom('dav_properties as p')
        .leftJoin('files as f', 'f.id', 'p.file_id')
        .leftJoin('folders as d', 'd.id', 'p.folder_id')
        .select(sql<number | string | null>`sum(${size})`.as('bytes'))
        .where('p.user_id', '=', userId)
        .where((eb) =>
          membersOf === undefined
            ? eb('p.resource_id', '=', resourceId)
            : eb.or([
                eb('p.resource_id', '=', resourceId),
                eb.and([
                  eb('f.id', 'is not', null),
                  eb('f.deleted_at', 'is', null),
                  eb(sql<string>`coalesce(f.folder_id, '')`, '=', parent),
                ]),
                eb.and([
                  eb('d.id', 'is not', null),
                  eb('d.deleted_at', 'is', null),
                  eb(sql<string>`coalesce(d.parent_id, '')`, '=', parent),
                ]),
              ]),
        )
        .executeTakeFirstOrThrow();
      return Number(row.bytes ?? 0);
    },
  };
}

export type DavPropertiesRepository = ReturnType<typeof createDavPropertiesRepository>;
