import type { Kysely } from 'kysely';
import { type AuditEntryRow, recordAuditEntry } from '../../db/admin-audit.ts';
import type { Database, InvoicesTable, LocalCheckoutSessionsTable, SubscriptionsTable } from '../../db/schema.ts';
import { COMPLIMENTARY } from './billing-rules.ts';

export type SubscriptionRow = SubscriptionsTable;
export type InvoiceRow = InvoicesTable;
export type LocalCheckoutSessionRow = LocalCheckoutSessionsTable;

/** Billing records as the provider reported them: queries only, scoped by user or provider id. */
function billingQueries(db: Kysely<Database>) {
  const findCustomerId = async (userId: string, provider: string): Promise<string | undefined> => {
    const row = await db
      .selectFrom('billing_customers')
      .select('customer_id')
      .where('user_id', '=', userId)
      .where('provider', '=', provider)
      .executeTakeFirst();
    return row?.customer_id;
  };

  return {
    /** Records a provider event; false when it was recorded (and applied) before. */
    async recordEvent(id: string, type: string, now: string): Promise<boolean> {
      const result = await db
        .insertInto('payment_events')
        .values({ id, type, received_at: now })
        .onConflict((conflict) => conflict.column('id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },

    findCustomerId,

    /** Keeps the first customer id stored for a user; answers the one that is stored. */
    async saveCustomerId(userId: string, provider: string, customerId: string, now: string): Promise<string> {
      await db
        .insertInto('billing_customers')
        .values({ user_id: userId, provider, customer_id: customerId, created_at: now })
        .onConflict((conflict) => conflict.doNothing())
        .execute();
      return (await findCustomerId(userId, provider)) ?? customerId;
    },

    async findUserIdByCustomer(provider: string, customerId: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('billing_customers')
        .select('user_id')
        .where('provider', '=', provider)
        .where('customer_id', '=', customerId)
        .executeTakeFirst();
      return row?.user_id;
    },

    async userExists(userId: string): Promise<boolean> {
      return (await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()) !== undefined;
    },

    findSubscription(providerSubscriptionId: string): Promise<SubscriptionRow | undefined> {
      return db.selectFrom('subscriptions').selectAll().where('provider_subscription_id', '=', providerSubscriptionId).executeTakeFirst();
    },

    /** The user's newest subscription, whatever its status. */
    latestSubscription(userId: string): Promise<SubscriptionRow | undefined> {
      return db
        .selectFrom('subscriptions')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('updated_at', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    /** Leaves a renewal claim as it is: only renewals write it. */
    async saveSubscription(row: Omit<SubscriptionRow, 'renewal_claimed_until'>): Promise<void> {
      const { provider_subscription_id: _id, created_at: _created, first_paid_at: _firstPaid, ...changes } = row;
      await db
        .insertInto('subscriptions')
        .values(row)
        .onConflict((conflict) => conflict.column('provider_subscription_id').doUpdateSet(changes))
        .execute();
    },

    async setFirstPaidAt(providerSubscriptionId: string, paidAt: string): Promise<void> {
      await db
        .updateTable('subscriptions')
        .set({ first_paid_at: paidAt })
        .where('provider_subscription_id', '=', providerSubscriptionId)
        .where('first_paid_at', 'is', null)
        .execute();
    },

    /**
     * Claims the provider's subscriptions due for renewal (the period is over while they still
     * grant a plan) that no run holds, until `claimUntil`; answers those this call claimed.
     * One statement: of two runs at once, PostgreSQL lets the second re-check each row after
     * the first's update, so a row goes to one run (SQLite runs one write at a time).
     */
    claimDueSubscriptions(provider: string, now: string, claimUntil: string): Promise<SubscriptionRow[]> {
      return db
        .updateTable('subscriptions')
        .set({ renewal_claimed_until: claimUntil })
        .where('provider', '=', provider)
        .where('status', 'in', ['active', 'past_due'])
        .where('current_period_end', '<=', now)
        .where((eb) => eb.or([eb('renewal_claimed_until', 'is', null), eb('renewal_claimed_until', '<=', now)]))
        .returningAll()
        .execute();
    },

    /** Complimentary plans whose end date has come while they still grant their plan. */
    dueComplimentary(now: string): Promise<SubscriptionRow[]> {
      return db
        .selectFrom('subscriptions')
        .selectAll()
        .where('provider', '=', COMPLIMENTARY)
        .where('status', '=', 'active')
        .where('current_period_end', '<=', now)
        .orderBy('current_period_end')
        .execute();
    },

    /** Ends an active subscription as of `endedAt` (only complimentary plans are ended so); false when it was not active. */
    async endActiveSubscription(providerSubscriptionId: string, endedAt: string, now: string): Promise<boolean> {
      const result = await db
        .updateTable('subscriptions')
        .set({ status: 'canceled', cancel_at_period_end: 0, current_period_end: endedAt, updated_at: now })
        .where('provider_subscription_id', '=', providerSubscriptionId)
        .where('status', '=', 'active')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** An operator's audit entry, written in the transaction of the plan change it records. */
    recordAuditEntry(entry: AuditEntryRow | undefined): Promise<void> {
      return recordAuditEntry(db, entry);
    },

    /** A later report of the same invoice updates its status (a failed payment retried and paid). */
    async saveInvoice(row: InvoiceRow): Promise<void> {
      await db
        .insertInto('invoices')
        .values(row)
        .onConflict((conflict) =>
          conflict
            .column('provider_invoice_id')
            .doUpdateSet({ status: row.status, invoice_url: row.invoice_url, payment_ref: row.payment_ref }),
        )
        .execute();
    },

    /** The subscription's first paid invoice with something to refund. */
    firstPaidInvoice(providerSubscriptionId: string): Promise<InvoiceRow | undefined> {
      return db
        .selectFrom('invoices')
        .selectAll()
        .where('provider_subscription_id', '=', providerSubscriptionId)
        .where('status', '=', 'paid')
        .where('amount_cents', '>', 0)
        .orderBy('created_at', 'asc')
        .limit(1)
        .executeTakeFirst();
    },

    findInvoice(providerInvoiceId: string): Promise<InvoiceRow | undefined> {
      return db.selectFrom('invoices').selectAll().where('provider_invoice_id', '=', providerInvoiceId).executeTakeFirst();
    },

    /** Whether the user was ever given a refund: the first-month refund is once per customer. */
    async hasRefund(userId: string): Promise<boolean> {
      const row = await db
        .selectFrom('invoices')
        .select('provider_invoice_id')
        .where('user_id', '=', userId)
        .where('refund_of', 'is not', null)
        .executeTakeFirst();
      return row !== undefined;
    },

    listInvoices(userId: string): Promise<InvoiceRow[]> {
      return db
        .selectFrom('invoices')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('provider_invoice_id')
        .execute();
    },

    async addHistory(entry: { id: string; user_id: string; type: string; plan_id: string; created_at: string }): Promise<void> {
      await db.insertInto('subscription_history').values(entry).execute();
    },

    listHistory(userId: string): Promise<Array<{ type: string; plan_id: string; created_at: string }>> {
      return db
        .selectFrom('subscription_history')
        .select(['type', 'plan_id', 'created_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
    },

    /**
     * Takes the user's row for the rest of the transaction, so transactions that decide the
     * user's plan run one after the other, each reading what the one before committed (two
     * nodes apply two subscriptions' events at once). An update that changes nothing: the one
     * row lock both dialects share (PostgreSQL waits on the row; SQLite writes one at a time).
     */
    async lockUser(userId: string): Promise<void> {
      await db
        .updateTable('users')
        .set((eb) => ({ plan_id: eb.ref('plan_id') }))
        .where('id', '=', userId)
        .execute();
    },

    async userPlanId(userId: string): Promise<string | undefined> {
      return (await db.selectFrom('users').select('plan_id').where('id', '=', userId).executeTakeFirst())?.plan_id;
    },

    async setUserPlan(userId: string, planId: string, now: string): Promise<void> {
      await db.updateTable('users').set({ plan_id: planId, updated_at: now }).where('id', '=', userId).execute();
    },

    /** Counters of the Usage tab: live files and folders, and files by category. */
    async usageCounts(userId: string): Promise<{ files: number; folders: number; documents: number; images: number; videos: number }> {
      const files = await db
        .selectFrom('files')
        .select(['category', (eb) => eb.fn.countAll<number>().as('count')])
        .where('user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .groupBy('category')
        .execute();
      const folders = await db
        .selectFrom('folders')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
      const byCategory = new Map(files.map((row) => [row.category, Number(row.count)]));
      return {
        files: files.reduce((sum, row) => sum + Number(row.count), 0),
        folders: Number(folders.count),
        documents: byCategory.get('document') ?? 0,
        images: byCategory.get('image') ?? 0,
        videos: byCategory.get('video') ?? 0,
      };
    },

    async createLocalSession(row: LocalCheckoutSessionRow): Promise<void> {
      await db.insertInto('local_checkout_sessions').values(row).execute();
    },

    findLocalSession(id: string): Promise<LocalCheckoutSessionRow | undefined> {
      return db.selectFrom('local_checkout_sessions').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Open, then completed once: a second Pay of the same session changes nothing. */
    async completeLocalSession(id: string, now: string): Promise<boolean> {
      const result = await db
        .updateTable('local_checkout_sessions')
        .set({ status: 'completed' })
        .where('id', '=', id)
        .where('status', '=', 'open')
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

export type BillingQueries = ReturnType<typeof billingQueries>;

/** Records that run work in one transaction; `Q` names the queries the work uses. */
export interface Transactional<Q> {
  /** Runs `work` in one transaction, its queries bound to it. */
  transaction<T>(work: (queries: Q) => Promise<T>): Promise<T>;
}

export interface BillingRepository extends BillingQueries, Transactional<BillingQueries> {}

export function createBillingRepository(db: Kysely<Database>): BillingRepository {
  return {
    ...billingQueries(db),
    transaction: (work) => db.transaction().execute((trx) => work(billingQueries(trx))),
  };
}
