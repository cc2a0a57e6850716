import type { PlanId } from '@cloudvault/contract/plans';
import type { LocalCheckoutSessionsTable, SubscriptionsTable } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { periodEndEventId, periodsOwed, renewalClaimExpiry, renewalInvoiceId } from './local-renewals.ts';
import type { InvoiceSnapshot, PaymentEvent, PaymentProvider, SubscriptionSnapshot } from './payment-provider.ts';

const DAY = 24 * 60 * 60 * 1000;
/** The catalogue's prices are dollars (docs/product.md). */
const CURRENCY = 'usd';
/** A checkout or portal link works this long, as a hosted one would. */
export const LOCAL_SESSION_LIFETIME_MS = DAY;

/** What the local provider keeps: its sessions, and the subscriptions it reported. */
export interface LocalCheckoutStore {
  createLocalSession(row: LocalCheckoutSessionsTable): Promise<void>;
  findLocalSession(id: string): Promise<LocalCheckoutSessionsTable | undefined>;
  completeLocalSession(id: string, now: string): Promise<boolean>;
  findSubscription(providerSubscriptionId: string): Promise<SubscriptionsTable | undefined>;
  /** Takes the subscriptions due for renewal that no other run holds, until `claimUntil`. */
  claimDueSubscriptions(provider: string, now: string, claimUntil: string): Promise<SubscriptionsTable[]>;
}

export interface LocalPaymentProvider extends PaymentProvider {
  readonly name: 'local';
  /** An open checkout session that has not expired, or undefined. */
  openSession(id: string, kind: 'checkout' | 'portal'): Promise<LocalCheckoutSessionsTable | undefined>;
  /** The Pay button: the events a card payment would produce, once per session; [] when it cannot be paid. */
  pay(sessionId: string): Promise<PaymentEvent[]>;
  /** Renewals and period ends that are due: an invoice for each new period, or the end. */
  renewDue(): Promise<PaymentEvent[]>;
}

/**
 * The built-in test checkout: a payment provider that charges nothing, so the product
 * works on one machine with no account anywhere. It reports what Stripe would (the same
 * normalised events), and the billing service applies them through the same code path.
 */
export function createLocalPaymentProvider(deps: {
  store: LocalCheckoutStore;
  clock: Clock;
  publicUrl: string;
  priceCentsOf(planId: PlanId): number;
  addMonth(iso: string): string;
  prorationCents(input: { fromPriceCents: number; toPriceCents: number; periodStart: string; periodEnd: string; now: string }): number;
}): LocalPaymentProvider {
  const { store, clock, publicUrl } = deps;
  const now = () => clock.now().toISOString();
  const eventId = () => `evt_local_${newId()}`;

  const snapshotOf = (row: SubscriptionsTable): SubscriptionSnapshot => ({
    providerSubscriptionId: row.provider_subscription_id,
    customerId: row.customer_id,
    userId: row.user_id,
    planId: row.plan_id as PlanId,
    status: row.status as SubscriptionSnapshot['status'],
    cancelAtPeriodEnd: row.cancel_at_period_end === 1,
    currentPeriodStart: row.current_period_start,
    currentPeriodEnd: row.current_period_end,
    createdAt: row.created_at,
  });

  const invoice = (
    subscription: SubscriptionSnapshot,
    amountCents: number,
    createdAt: string,
    id = `in_local_${newId()}`,
  ): InvoiceSnapshot => {
    return {
      providerInvoiceId: id,
      providerSubscriptionId: subscription.providerSubscriptionId,
      customerId: subscription.customerId,
      amountCents,
      currency: CURRENCY,
      status: 'paid',
      createdAt,
      invoiceUrl: `${publicUrl}/api/payments/local/invoices/${id}`,
      paymentRef: `pi_local_${id.replace(/^in_local_/, '')}`,
    };
  };

  /** The same formula for the preview and the change: docs/api.md#local-checkout. */
  const proration = (row: SubscriptionsTable, planId: PlanId, at: string): number =>
    deps.prorationCents({
      fromPriceCents: deps.priceCentsOf(row.plan_id as PlanId),
      toPriceCents: deps.priceCentsOf(planId),
      periodStart: row.current_period_start,
      periodEnd: row.current_period_end,
      now: at,
    });

  async function requireSubscription(providerSubscriptionId: string): Promise<SubscriptionsTable> {
    const row = await store.findSubscription(providerSubscriptionId);
    if (!row) throw new Error(`local subscription ${providerSubscriptionId} does not exist`);
    return row;
  }

  const changed = (subscription: SubscriptionSnapshot): PaymentEvent => ({ id: eventId(), type: 'subscription.changed', subscription });

  async function createSession(input: Pick<LocalCheckoutSessionsTable, 'user_id' | 'kind' | 'plan_id' | 'customer_id' | 'return_url'>) {
    const id = `${input.kind === 'checkout' ? 'cs' : 'bps'}_local_${newId()}`;
    const createdAt = clock.now();
    await store.createLocalSession({
      ...input,
      id,
      status: 'open',
      created_at: createdAt.toISOString(),
      expires_at: new Date(createdAt.getTime() + LOCAL_SESSION_LIFETIME_MS).toISOString(),
    });
    return { id, url: `${publicUrl}/api/payments/local/${input.kind}/${id}` };
  }

  return {
    name: 'local',

    async createCustomer() {
      return `cus_local_${newId()}`;
    },

    createCheckoutSession({ customer, planId }) {
      return createSession({
        user_id: customer.userId,
        kind: 'checkout',
        plan_id: planId,
        customer_id: customer.customerId,
        return_url: null,
      });
    },

    async createPortalSession({ customer, returnUrl }) {
      const { url } = await createSession({
        user_id: customer.userId,
        kind: 'portal',
        plan_id: null,
        customer_id: customer.customerId,
        return_url: returnUrl,
      });
      return { url };
    },

    async openSession(id, kind) {
      const session = await store.findLocalSession(id);
      if (!session || session.kind !== kind || session.status !== 'open' || session.expires_at <= now()) return undefined;
      return session;
    },

    async pay(sessionId) {
      const session = await store.findLocalSession(sessionId);
      if (!session || session.kind !== 'checkout' || !session.plan_id) return [];
      const paidAt = now();
      if (!(await store.completeLocalSession(sessionId, paidAt))) return [];
      const subscription: SubscriptionSnapshot = {
        providerSubscriptionId: `sub_local_${newId()}`,
        customerId: session.customer_id,
        userId: session.user_id,
        planId: session.plan_id as PlanId,
        status: 'active',
        cancelAtPeriodEnd: false,
        currentPeriodStart: paidAt,
        currentPeriodEnd: deps.addMonth(paidAt),
        createdAt: paidAt,
      };
      return [
        { id: eventId(), type: 'checkout.completed', userId: session.user_id, subscription },
        {
          id: eventId(),
          type: 'invoice.paid',
          invoice: invoice(subscription, deps.priceCentsOf(subscription.planId), paidAt),
          subscription,
        },
      ];
    },

    // A local session's effects were applied when it was paid, before the Success screen loads.
    async checkoutSessionEvents() {
      return [];
    },

    async previewPlanChange(providerSubscriptionId, planId, prorationDate) {
      const row = await requireSubscription(providerSubscriptionId);
      return { amountCents: proration(row, planId, prorationDate.toISOString()), currency: CURRENCY, periodEnd: row.current_period_end };
    },

    async changePlan(providerSubscriptionId, planId, prorationDate) {
      const row = await requireSubscription(providerSubscriptionId);
      const changedAt = now();
      const subscription = { ...snapshotOf(row), planId };
      // As of the previewed moment when there was one, so the charge is the one shown.
      const amountCents = proration(row, planId, prorationDate?.toISOString() ?? changedAt);
      const events: PaymentEvent[] = [changed(subscription)];
      // The prorated difference: a charge for an upgrade, a credit (negative) for a downgrade.
      if (amountCents !== 0)
        events.push({ id: eventId(), type: 'invoice.paid', invoice: invoice(subscription, amountCents, changedAt), subscription });
      return events;
    },

    async cancelAtPeriodEnd(providerSubscriptionId) {
      return [changed({ ...snapshotOf(await requireSubscription(providerSubscriptionId)), cancelAtPeriodEnd: true })];
    },

    async reactivate(providerSubscriptionId) {
      return [changed({ ...snapshotOf(await requireSubscription(providerSubscriptionId)), cancelAtPeriodEnd: false })];
    },

    async cancelNow(providerSubscriptionId) {
      const row = await requireSubscription(providerSubscriptionId);
      return [changed({ ...snapshotOf(row), status: 'canceled', cancelAtPeriodEnd: false, currentPeriodEnd: now() })];
    },

    async refund(paid) {
      // Named after the invoice, as a provider keys a refund by it: asked twice, the same refund.
      const id = `re_local_${paid.providerInvoiceId.replace(/^in_local_/, '')}`;
      return [
        {
          id: `evt_local_${id}`,
          type: 'invoice.refunded',
          refundOf: paid.providerInvoiceId,
          invoice: {
            providerInvoiceId: id,
            providerSubscriptionId: null,
            customerId: paid.customerId,
            amountCents: -Math.abs(paid.amountCents),
            currency: paid.currency,
            status: 'paid',
            createdAt: now(),
            invoiceUrl: `${publicUrl}/api/payments/local/invoices/${id}`,
            paymentRef: null,
          },
        },
      ];
    },

    async parseWebhook() {
      throw new Error('The local payment provider has no webhooks');
    },

    async renewDue() {
      const at = now();
      const events: PaymentEvent[] = [];
      // Claimed first, so a run on another node at the same moment leaves these alone; and
      // named by subscription and period, so a run that still overlaps (a claim that lapsed
      // on a slow run) reports the same events, which billing applies once.
      for (const row of await store.claimDueSubscriptions('local', at, renewalClaimExpiry(at))) {
        const subscription = snapshotOf(row);
        if (subscription.cancelAtPeriodEnd) {
          events.push({
            id: periodEndEventId(row.provider_subscription_id),
            type: 'subscription.changed',
            subscription: { ...subscription, status: 'canceled' },
          });
          continue;
        }
        // One invoice per period that began while the server was not looking.
        for (const period of periodsOwed(subscription.currentPeriodEnd, at, deps.addMonth)) {
          const renewed = { ...subscription, currentPeriodStart: period.start, currentPeriodEnd: period.end };
          const id = renewalInvoiceId(row.provider_subscription_id, period.start);
          events.push({
            id: `evt_${id}`,
            type: 'invoice.paid',
            invoice: invoice(renewed, deps.priceCentsOf(renewed.planId), period.start, id),
            subscription: renewed,
          });
        }
      }
      return events;
    },
  };
}
