import type { PlanId } from '@cloudvault/contract/plans';
import type { InvoiceSnapshot, PaymentEvent, PaymentProvider, SubscriptionSnapshot } from '../../adapters/payments/payment-provider.ts';
import type { AuditEntryRow } from '../../db/admin-audit.ts';
import type { PlanCatalogue, PlanEntry } from '../plans/plans.catalogue.ts';
import type { InvoiceRow, SubscriptionRow } from './billing.repository.ts';
import type { BillingRecords } from './billing.service.ts';
import type { ComplimentaryQueries } from './complimentary.service.ts';
import type { PaymentEventQueries } from './payment-events.ts';
import type { PlanChangedReaction } from './plan-changes.ts';

/*
 * In-memory stand-ins for the billing module's narrow dependencies, shared by its unit tests.
 * They keep the contracts the module relies on (upserts that keep what the repository keeps,
 * an event id recorded once, a transaction that leaves nothing behind when its work throws),
 * and nothing of SQL: the integration tests prove the queries on SQLite and PostgreSQL.
 */

/** Records outside and inside a transaction are one object here. */
type FakeRecords = BillingRecords & PaymentEventQueries & ComplimentaryQueries;

const plan = (id: PlanId, name: string, price: number, storageLimit: number) => ({ id, name, price, storageLimit }) as unknown as PlanEntry;

/** Free, Pro and Business, by price, as config/plans.json has them. */
export function fakePlans(): PlanCatalogue {
  const all = [plan('FREE', 'Free', 0, 500), plan('PRO', 'Pro', 9.99, 100_000), plan('PREMIUM', 'Business', 19.99, 1_000_000)];
  return { all: () => all, get: (id) => all.find((entry) => entry.id === id) ?? (all[0] as PlanEntry) };
}

/** A clock the test moves. */
export function fakeClock(start = '2026-11-01T12:00:00.000Z') {
  let time = Date.parse(start);
  return {
    now: () => new Date(time),
    iso: () => new Date(time).toISOString(),
    advance(ms: number) {
      time += ms;
    },
  };
}

interface BillingState {
  plansOfUsers: Map<string, string>;
  customers: Map<string, string>;
  subscriptions: Map<string, SubscriptionRow>;
  invoices: Map<string, InvoiceRow>;
  history: Array<{ id: string; user_id: string; type: string; plan_id: string; created_at: string }>;
  events: Set<string>;
  audit: AuditEntryRow[];
}

/** The billing records of a few users, in memory; `state` is there for the test to read. */
export function fakeBillingRecords(userIds: string[]) {
  const state: BillingState = {
    plansOfUsers: new Map(userIds.map((id) => [id, 'FREE'])),
    customers: new Map(),
    subscriptions: new Map(),
    invoices: new Map(),
    history: [],
    events: new Set(),
    audit: [],
  };
  const newestFirst = <T extends { created_at: string }>(a: T, b: T) => b.created_at.localeCompare(a.created_at);

  const records: FakeRecords = {
    async transaction(work) {
      const before = structuredClone(state);
      try {
        return await work(records);
      } catch (error) {
        Object.assign(state, before);
        throw error;
      }
    },
    recordEvent: async (id) => !state.events.has(id) && Boolean(state.events.add(id)),
    findCustomerId: async (userId, provider) => state.customers.get(`${provider}:${userId}`),
    async saveCustomerId(userId, provider, customerId) {
      const key = `${provider}:${userId}`;
      if (!state.customers.has(key)) state.customers.set(key, customerId);
      return state.customers.get(key) as string;
    },
    async findUserIdByCustomer(provider, customerId) {
      const entry = [...state.customers].find(([key, id]) => key.startsWith(`${provider}:`) && id === customerId);
      return entry?.[0].slice(provider.length + 1);
    },
    userExists: async (userId) => state.plansOfUsers.has(userId),
    findSubscription: async (id) => state.subscriptions.get(id),
    async latestSubscription(userId) {
      const mine = [...state.subscriptions.values()].filter((row) => row.user_id === userId);
      return mine.sort((a, b) => newestFirst(a, b) || b.updated_at.localeCompare(a.updated_at))[0];
    },
    async saveSubscription(row) {
      const stored = state.subscriptions.get(row.provider_subscription_id);
      // As the repository's upsert: the id, creation and first payment stay as first written.
      state.subscriptions.set(
        row.provider_subscription_id,
        stored ? { ...stored, ...row, created_at: stored.created_at, first_paid_at: stored.first_paid_at } : { ...row },
      );
    },
    async setFirstPaidAt(id, paidAt) {
      const row = state.subscriptions.get(id);
      if (row && row.first_paid_at === null) row.first_paid_at = paidAt;
    },
    async dueComplimentary(now) {
      return [...state.subscriptions.values()]
        .filter((row) => row.provider === 'complimentary' && row.status === 'active' && row.current_period_end <= now)
        .sort((a, b) => a.current_period_end.localeCompare(b.current_period_end));
    },
    async endActiveSubscription(id, endedAt, now) {
      const row = state.subscriptions.get(id);
      if (row?.status !== 'active') return false;
      Object.assign(row, { status: 'canceled', cancel_at_period_end: 0, current_period_end: endedAt, updated_at: now });
      return true;
    },
    async recordAuditEntry(entry) {
      if (entry) state.audit.push(entry);
    },
    async saveInvoice(row) {
      const stored = state.invoices.get(row.provider_invoice_id);
      const { status, invoice_url, payment_ref } = row;
      state.invoices.set(row.provider_invoice_id, stored ? { ...stored, status, invoice_url, payment_ref } : { ...row });
    },
    async firstPaidInvoice(id) {
      const paid = [...state.invoices.values()].filter(
        (row) => row.provider_subscription_id === id && row.status === 'paid' && row.amount_cents > 0,
      );
      return paid.sort((a, b) => -newestFirst(a, b))[0];
    },
    findInvoice: async (id) => state.invoices.get(id),
    hasRefund: async (userId) => [...state.invoices.values()].some((row) => row.user_id === userId && row.refund_of !== null),
    listInvoices: async (userId) => [...state.invoices.values()].filter((row) => row.user_id === userId).sort(newestFirst),
    async addHistory(entry) {
      state.history.push(entry);
    },
    listHistory: async (userId) => state.history.filter((entry) => entry.user_id === userId).sort(newestFirst),
    // The lock serialises transactions of several nodes; in one process there is nothing to wait for.
    lockUser: async () => undefined,
    userPlanId: async (userId) => state.plansOfUsers.get(userId),
    async setUserPlan(userId, planId) {
      state.plansOfUsers.set(userId, planId);
    },
    usageCounts: async () => ({ files: 0, folders: 0, documents: 0, images: 0, videos: 0 }),
  };
  return { records, state };
}

/** A subscription as a provider reports it: Pro, active and renewing, for a month from `at`. */
export function subscriptionSnapshot(userId: string, at: string, changes: Partial<SubscriptionSnapshot> = {}): SubscriptionSnapshot {
  return {
    providerSubscriptionId: `sub_${userId}`,
    customerId: `cus_${userId}`,
    userId,
    planId: 'PRO',
    status: 'active',
    cancelAtPeriodEnd: false,
    currentPeriodStart: at,
    currentPeriodEnd: new Date(Date.parse(at) + 30 * 24 * 60 * 60 * 1000).toISOString(),
    createdAt: at,
    ...changes,
  };
}

/** A paid invoice of a subscription, as a provider reports it. */
export function paidInvoice(subscription: SubscriptionSnapshot, at: string, changes: Partial<InvoiceSnapshot> = {}): InvoiceSnapshot {
  return {
    providerInvoiceId: `in_${subscription.providerSubscriptionId}_${at}`,
    providerSubscriptionId: subscription.providerSubscriptionId,
    customerId: subscription.customerId,
    amountCents: 999,
    currency: 'usd',
    status: 'paid',
    createdAt: at,
    invoiceUrl: null,
    paymentRef: `pi_${at}`,
    ...changes,
  };
}

/**
 * A payment provider that keeps the subscriptions it reported and answers each request with
 * the events a real one sends; `requests` lists what it was asked, in order. A test replaces a
 * method to make it fail.
 */
export function fakeProvider(clock: { iso(): string }) {
  let eventCount = 0;
  const eventId = () => `evt_${(eventCount += 1)}`;
  const subscriptions = new Map<string, SubscriptionSnapshot>();
  const sessions = new Map<string, PaymentEvent[]>();
  const requests: string[] = [];
  const changed = (id: string, changes: Partial<SubscriptionSnapshot>): PaymentEvent[] => {
    const subscription = { ...(subscriptions.get(id) as SubscriptionSnapshot), ...changes };
    subscriptions.set(id, subscription);
    return [{ id: eventId(), type: 'subscription.changed', subscription }];
  };

  const provider = {
    name: 'stripe' as const,
    requests,
    /** The events a paid checkout produces, for a new subscription; `completeCheckout` files them under its session id. */
    checkoutEvents(userId: string, planId: PlanId = 'PRO'): PaymentEvent[] {
      // sub_ann for ann's first subscription, sub_ann_2 for her second.
      const earlier = [...subscriptions.values()].filter((subscription) => subscription.userId === userId).length;
      const providerSubscriptionId = earlier === 0 ? `sub_${userId}` : `sub_${userId}_${earlier + 1}`;
      const subscription = subscriptionSnapshot(userId, clock.iso(), { planId, providerSubscriptionId });
      subscriptions.set(subscription.providerSubscriptionId, subscription);
      const invoice = paidInvoice(subscription, clock.iso(), { amountCents: planId === 'PREMIUM' ? 1999 : 999 });
      return [
        { id: eventId(), type: 'checkout.completed', userId, subscription },
        { id: eventId(), type: 'invoice.paid', invoice, subscription },
      ];
    },
    /** What a webhook brings when the subscription changes at the provider. */
    reportChange: changed,
    completeCheckout(sessionId: string, userId: string, planId: PlanId = 'PRO') {
      sessions.set(`${sessionId}:${userId}`, provider.checkoutEvents(userId, planId));
    },
    async createCustomer({ userId }) {
      requests.push(`createCustomer ${userId}`);
      return `cus_${userId}`;
    },
    async createCheckoutSession({ customer, planId }) {
      requests.push(`createCheckoutSession ${customer.customerId} ${planId}`);
      return { id: `cs_${customer.userId}`, url: `https://pay.example/cs_${customer.userId}` };
    },
    async createPortalSession({ customer, returnUrl }) {
      requests.push(`createPortalSession ${customer.customerId} ${returnUrl}`);
      return { url: `https://pay.example/portal_${customer.userId}` };
    },
    checkoutSessionEvents: async (sessionId, userId) => sessions.get(`${sessionId}:${userId}`) ?? [],
    async previewPlanChange(id, planId, prorationDate) {
      requests.push(`previewPlanChange ${id} ${planId} ${prorationDate.toISOString()}`);
      const subscription = subscriptions.get(id) as SubscriptionSnapshot;
      return { amountCents: planId === 'PREMIUM' ? 500 : -500, currency: 'usd', periodEnd: subscription.currentPeriodEnd };
    },
    async changePlan(id, planId, prorationDate) {
      requests.push(`changePlan ${id} ${planId}${prorationDate ? ` ${prorationDate.toISOString()}` : ''}`);
      return changed(id, { planId });
    },
    async cancelAtPeriodEnd(id) {
      requests.push(`cancelAtPeriodEnd ${id}`);
      return changed(id, { cancelAtPeriodEnd: true });
    },
    async cancelNow(id) {
      requests.push(`cancelNow ${id}`);
      return changed(id, { status: 'canceled', cancelAtPeriodEnd: false });
    },
    async reactivate(id) {
      requests.push(`reactivate ${id}`);
      return changed(id, { cancelAtPeriodEnd: false });
    },
    async refund(paid) {
      requests.push(`refund ${paid.providerInvoiceId} ${paid.amountCents}`);
      const invoice = {
        ...paid,
        providerInvoiceId: `re_${paid.providerInvoiceId}`,
        providerSubscriptionId: null,
        amountCents: -paid.amountCents,
        status: 'paid' as const,
        createdAt: clock.iso(),
        invoiceUrl: null,
        paymentRef: null,
      };
      return [{ id: eventId(), type: 'invoice.refunded', invoice, refundOf: paid.providerInvoiceId }];
    },
    parseWebhook: async () => [],
  } satisfies PaymentProvider & Record<string, unknown>;
  return provider;
}

/** A planChanged reaction that writes each change it is told, as `user type plan`, into `reactions`. */
export function recordingPlanChanged(): { reactions: string[]; planChanged: PlanChangedReaction } {
  const reactions: string[] = [];
  return {
    reactions,
    planChanged: async (userId, change) => {
      reactions.push(`${userId} ${change.type} ${change.planName}`);
    },
  };
}
