import { type Kysely, sql } from 'kysely';
import type { AdminUserSort, AdminUserStatus } from '@cloudvault/contract/admin';
import { type AuditEntryRow, recordAuditEntry } from '../../db/admin-audit.ts';
import type { Database, UsersTable } from '../../db/schema.ts';

export type AuditRow = AuditEntryRow;

/** A user as the console lists them: the row, their live files, and what grants their plan now. */
export type ListedUser = UsersTable & {
  files_count: number;
  /** The provider of the newest subscription that grants a plan (`complimentary` for an operator's grant), or null. */
  plan_provider: string | null;
  plan_ends_at: string | null;
};

/** The column each sort reads, newest or largest first, ties broken by id. */
const SORT_COLUMN = { created: 'created_at', storage: 'storage_used', lastSignIn: 'last_sign_in_at' } as const satisfies Record<
  AdminUserSort,
  keyof UsersTable
>;

/** Where a page ended: the next starts after this (value, id) in the sort's order. */
export interface UserPageKey {
  value: string | number;
  id: string;
}

export interface UserListQuery {
  /** Lower-cased; matched anywhere in "email first last". */
  search: string | undefined;
  plan: string | undefined;
  status: AdminUserStatus | undefined;
  sort: AdminUserSort;
  after: UserPageKey | null;
  limit: number;
}

/**
 * What the search matches: the same expression the trigram index of migration
 * 2026-11-24-20-operator-console is built on, so PostgreSQL can use it.
 */
const SEARCH_TEXT = sql<string>`lower(email || ' ' || first_name || ' ' || last_name)`;

/** `%`, `_` and the escape character itself stand for themselves in the searched text. */
function containsPattern(search: string): string {
  return `%${search.replace(/[!%_]/g, (character) => `!${character}`)}%`;
}

/** The operator console's reads across every account, and its audit log: queries only. */
export function createAdminRepository(db: Kysely<Database>) {
  /** Users with their live files counted and the plan-granting subscription's provider and end. */
  function listedUsers() {
    return db
      .selectFrom('users')
      .selectAll('users')
      .select((eb) => [
        eb
          .selectFrom('files')
          .select(eb.fn.countAll<number>().as('count'))
          .whereRef('files.user_id', '=', 'users.id')
          .where('files.deleted_at', 'is', null)
          .as('files_count'),
        eb
          .selectFrom('subscriptions')
          .select('subscriptions.provider')
          .whereRef('subscriptions.user_id', '=', 'users.id')
          .where('subscriptions.status', 'in', ['active', 'past_due'])
          .orderBy('subscriptions.created_at', 'desc')
          .limit(1)
          .as('plan_provider'),
        eb
          .selectFrom('subscriptions')
          .select('subscriptions.current_period_end')
          .whereRef('subscriptions.user_id', '=', 'users.id')
          .where('subscriptions.status', 'in', ['active', 'past_due'])
          .orderBy('subscriptions.created_at', 'desc')
          .limit(1)
          .as('plan_ends_at'),
      ]);
  }

  return {
    /** A page of users in the sort's order (descending, then id descending), after `after`. */
    listUsers(query: UserListQuery): Promise<ListedUser[]> {
      const column = SORT_COLUMN[query.sort];
      return listedUsers()
        .$if(query.search !== undefined, (q) =>
          q.where(sql<boolean>`${SEARCH_TEXT} LIKE ${containsPattern(query.search ?? '')} ESCAPE '!'`),
        )
        .$if(query.plan !== undefined, (q) => q.where('users.plan_id', '=', query.plan ?? ''))
        .$if(query.status === 'suspended', (q) => q.where('users.suspended_at', 'is not', null))
        .$if(query.status === 'active', (q) => q.where('users.suspended_at', 'is', null))
        .$if(query.after !== null, (q) =>
          q.where((eb) => eb(eb.refTuple(`users.${column}`, 'users.id'), '<', eb.tuple(query.after?.value ?? '', query.after?.id ?? ''))),
        )
        .orderBy(`users.${column}`, 'desc')
        .orderBy('users.id', 'desc')
        .limit(query.limit)
        .execute() as Promise<ListedUser[]>;
    },

    findListedUser(userId: string): Promise<ListedUser | undefined> {
      return listedUsers().where('users.id', '=', userId).executeTakeFirst() as Promise<ListedUser | undefined>;
    },

    /** The figures of one account a support case needs, without any file's name. */
    async usage(userId: string, largest: number): Promise<{ trashed: number; versions: number; largestFileSizes: number[] }> {
      const [trashedFiles, trashedFolders, versions, largestFiles] = await Promise.all([
        db
          .selectFrom('files')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('user_id', '=', userId)
          .where('deleted_at', 'is not', null)
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('folders')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('user_id', '=', userId)
          .where('deleted_at', 'is not', null)
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('file_versions')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('files')
          .select('size')
          .where('user_id', '=', userId)
          .where('deleted_at', 'is', null)
          .orderBy('size', 'desc')
          .limit(largest)
          .execute(),
      ]);
      return {
        trashed: Number(trashedFiles.count) + Number(trashedFolders.count),
        versions: Number(versions.count),
        largestFileSizes: largestFiles.map((row) => Number(row.size)),
      };
    },

    /** Accounts in all, created since each date, suspended, and their storage in all. */
    async userCounts(
      weekAgo: string,
      monthAgo: string,
    ): Promise<{ total: number; week: number; month: number; suspended: number; storage: number }> {
      const row = await db
        .selectFrom('users')
        .select([
          (eb) => eb.fn.countAll<number>().as('total'),
          sql<number>`sum(CASE WHEN created_at >= ${weekAgo} THEN 1 ELSE 0 END)`.as('week'),
          sql<number>`sum(CASE WHEN created_at >= ${monthAgo} THEN 1 ELSE 0 END)`.as('month'),
          sql<number>`sum(CASE WHEN suspended_at IS NOT NULL THEN 1 ELSE 0 END)`.as('suspended'),
          (eb) => eb.fn.sum<number>('storage_used').as('storage'),
        ])
        .executeTakeFirstOrThrow();
      return {
        total: Number(row.total),
        week: Number(row.week ?? 0),
        month: Number(row.month ?? 0),
        suspended: Number(row.suspended ?? 0),
        storage: Number(row.storage ?? 0),
      };
    },

    async liveFiles(): Promise<number> {
      const row = await db
        .selectFrom('files')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /** Subscriptions that grant a plan now, by plan, provider and status. */
    async grantingSubscriptions(): Promise<Array<{ plan_id: string; provider: string; status: string; count: number }>> {
      const rows = await db
        .selectFrom('subscriptions')
        .select(['plan_id', 'provider', 'status', (eb) => eb.fn.countAll<number>().as('count')])
        .where('status', 'in', ['active', 'past_due'])
        .groupBy(['plan_id', 'provider', 'status'])
        .execute();
      return rows.map((row) => ({ ...row, count: Number(row.count) }));
    },

    /** Paid invoices and refunds (negative) per calendar month (YYYY-MM) since `since`, in cents. */
    async revenueByMonth(since: string): Promise<Array<{ month: string; invoiced: number; refunded: number }>> {
      const rows = await db
        .selectFrom('invoices')
        .select([
          sql<string>`substr(created_at, 1, 7)`.as('month'),
          sql<number>`sum(CASE WHEN refund_of IS NULL THEN amount_cents ELSE 0 END)`.as('invoiced'),
          sql<number>`sum(CASE WHEN refund_of IS NOT NULL THEN -amount_cents ELSE 0 END)`.as('refunded'),
        ])
        .where('status', '=', 'paid')
        .where('created_at', '>=', since)
        .groupBy(sql`substr(created_at, 1, 7)`)
        .execute();
      return rows.map((row) => ({ month: row.month, invoiced: Number(row.invoiced ?? 0), refunded: Number(row.refunded ?? 0) }));
    },

    /** Refunds given since `since`: how many, and their sum in cents (positive). */
    async refundsSince(since: string): Promise<{ count: number; cents: number }> {
      const row = await db
        .selectFrom('invoices')
        .select([(eb) => eb.fn.countAll<number>().as('count'), (eb) => eb.fn.sum<number>('amount_cents').as('cents')])
        .where('refund_of', 'is not', null)
        .where('created_at', '>=', since)
        .executeTakeFirstOrThrow();
      return { count: Number(row.count), cents: -Number(row.cents ?? 0) };
    },

    /** Every account's storage per day with a snapshot (the daily figures job's totals), oldest first. */
    async storageByDay(fromDay: string): Promise<Array<{ day: string; bytes: number }>> {
      const rows = await db
        .selectFrom('storage_daily_totals')
        .select(['day', 'bytes'])
        .where('day', '>=', fromDay)
        .orderBy('day')
        .execute();
      return rows.map((row) => ({ day: row.day, bytes: Number(row.bytes) }));
    },

    largestAccounts(limit: number) {
      return db
        .selectFrom('users')
        .select(['id', 'email', 'first_name', 'last_name', 'plan_id', 'storage_used'])
        .orderBy('storage_used', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
    },

    /** An entry on its own: for what no transaction of ours changes (a mail, the command line's role change). */
    insertAudit(row: AuditRow): Promise<void> {
      return recordAuditEntry(db, row);
    },

    /** A page of the audit log, newest first, after `after`; one user's entries when `targetId` is given. */
    listAudit(query: {
      targetId: string | undefined;
      after: { createdAt: string; id: string } | null;
      limit: number;
    }): Promise<AuditRow[]> {
      return db
        .selectFrom('admin_audit')
        .selectAll()
        .$if(query.targetId !== undefined, (q) => q.where('target_id', '=', query.targetId ?? ''))
        .$if(query.after !== null, (q) =>
          q.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(query.after?.createdAt ?? '', query.after?.id ?? ''))),
        )
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(query.limit)
        .execute();
    },
  };
}

export type AdminRepository = ReturnType<typeof createAdminRepository>;
