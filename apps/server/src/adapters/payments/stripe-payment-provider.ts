import type { PlanId } from '@cloudvault/contract/plans';
import Stripe from 'stripe';
import type { PaymentsConfig } from '../../config.ts';
import { newId } from '../../lib/ids.ts';
import {
  type InvoiceSnapshot,
  type PaymentEvent,
  type PaymentProvider,
  type SubscriptionSnapshot,
  WebhookSignatureError,
} from './payment-provider.ts';

type StripePaymentsConfig = Extract<PaymentsConfig, { provider: 'stripe' }>;

/**
 * Pinned rather than the account's default: the SDK's types describe this version only
 * (period dates on subscription items, an invoice's subscription under `parent`, its
 * payments listed apart), and the code below reads the answers through those types.
 */
const API_VERSION = '2026-10-28.endive';

/**
 * Stripe's subscription statuses in ours. Only active and past_due grant the plan.
 * - active, trialing: the plan is in force.
 * - past_due: a renewal failed and Stripe is retrying; the plan was paid for and stays
 *   while it does.
 * - incomplete (the first payment needs the customer) and unpaid (the retries gave up):
 *   nothing paid for this period, so no plan, but either may still be paid and turn active.
 * - canceled, incomplete_expired (the first payment was never made), paused (collection
 *   stopped, nothing is billed): the subscription no longer bills.
 */
const STATUSES: Record<string, SubscriptionSnapshot['status']> = {
  active: 'active',
  trialing: 'active',
  past_due: 'past_due',
  unpaid: 'unpaid',
  incomplete: 'incomplete',
  canceled: 'canceled',
  incomplete_expired: 'canceled',
  paused: 'canceled',
};

/**
 * PaymentProvider on Stripe: hosted Checkout and Billing Portal, subscription changes
 * through the API, and webhooks whose subscription state is always read back from the
 * API so a late or repeated event reports the present, not the moment it was sent.
 */
export function createStripePaymentProvider(config: StripePaymentsConfig, options: { publicUrl: string }): PaymentProvider {
  const stripe = new Stripe(config.secretKey, { apiVersion: API_VERSION, ...apiAddress(config.apiUrl) });

  function priceOf(planId: PlanId): string {
    if (planId === 'FREE') throw new Error('The FREE plan has no Stripe price: it is never bought');
    return config.prices[planId];
  }

  function planOf(priceId: string): PlanId {
    if (priceId === config.prices.PRO) return 'PRO';
    if (priceId === config.prices.PREMIUM) return 'PREMIUM';
    throw new Error(`Stripe price ${priceId} is neither STRIPE_PRICE_PRO nor STRIPE_PRICE_PREMIUM`);
  }

  function subscriptionSnapshot(subscription: Stripe.Subscription): SubscriptionSnapshot {
    // One item per subscription (one plan); its period is the subscription's period.
    const item = subscription.items.data[0];
    if (!item) throw new Error(`Stripe subscription ${subscription.id} has no item`);
    const status = STATUSES[subscription.status];
    if (!status) throw new Error(`Stripe subscription ${subscription.id} has an unknown status "${subscription.status}"`);
    return {
      providerSubscriptionId: subscription.id,
      customerId: idOf(subscription.customer),
      userId: subscription.metadata.userId ?? null,
      planId: planOf(item.price.id),
      status,
      // Stripe's portal may schedule the end with cancel_at instead of the flag: both end it.
      cancelAtPeriodEnd: subscription.cancel_at_period_end || subscription.cancel_at !== null,
      currentPeriodStart: isoTime(item.current_period_start),
      currentPeriodEnd: isoTime(item.current_period_end),
      createdAt: isoTime(subscription.created),
    };
  }

  /** The PaymentIntent that paid an invoice, which a refund needs; this API version lists it under invoice payments. */
  async function paymentIntentOf(invoiceId: string): Promise<string | null> {
    const payments = await stripe.invoicePayments.list({ invoice: invoiceId, status: 'paid' });
    const intent = payments.data.find((payment) => payment.payment.type === 'payment_intent')?.payment.payment_intent;
    return intent === undefined ? null : idOf(intent);
  }

  async function invoiceSnapshot(invoice: Stripe.Invoice, status: 'paid' | 'failed'): Promise<InvoiceSnapshot> {
    if (!invoice.customer) throw new Error(`Stripe invoice ${invoice.id} has no customer`);
    const subscription = invoice.parent?.subscription_details?.subscription;
    return {
      providerInvoiceId: invoice.id,
      providerSubscriptionId: subscription === undefined ? null : idOf(subscription),
      customerId: idOf(invoice.customer),
      amountCents: status === 'paid' ? invoice.amount_paid : invoice.amount_due,
      currency: invoice.currency,
      status,
      createdAt: isoTime(invoice.created),
      invoiceUrl: invoice.hosted_invoice_url ?? null,
      paymentRef: status === 'paid' && invoice.amount_paid > 0 ? await paymentIntentOf(invoice.id) : null,
    };
  }

  async function currentSubscription(id: string): Promise<SubscriptionSnapshot> {
    return subscriptionSnapshot(await stripe.subscriptions.retrieve(id));
  }

  /** An API answer as an event of its own: every answer is new state, never a repeat of an earlier one. */
  function answerEvent(subscription: Stripe.Subscription): PaymentEvent[] {
    return [{ id: `api_${subscription.id}_${newId()}`, type: 'subscription.changed', subscription: subscriptionSnapshot(subscription) }];
  }

  async function eventsOf(event: Stripe.Event): Promise<PaymentEvent[]> {
    switch (event.type) {
      case 'checkout.session.completed': {
        const session = event.data.object;
        if (!session.subscription || !session.client_reference_id) return [];
        const subscription = await currentSubscription(idOf(session.subscription));
        return [{ id: event.id, type: 'checkout.completed', userId: session.client_reference_id, subscription }];
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
        return [{ id: event.id, type: 'subscription.changed', subscription: await currentSubscription(event.data.object.id) }];
      case 'customer.subscription.deleted': {
        // A deleted subscription stays retrievable; only when Stripe no longer has it at all
        // (its customer was deleted) is the event's own copy the last word.
        const subscription = await stripe.subscriptions.retrieve(event.data.object.id).catch((error: unknown) => {
          if (isNotFound(error)) return event.data.object;
          throw error;
        });
        return [{ id: event.id, type: 'subscription.changed', subscription: subscriptionSnapshot(subscription) }];
      }
      case 'invoice.paid':
      case 'invoice.payment_failed': {
        const invoice = event.data.object;
        const status = event.type === 'invoice.paid' ? 'paid' : 'failed';
        const subscriptionId = invoice.parent?.subscription_details?.subscription;
        return [
          {
            id: event.id,
            type: event.type,
            invoice: await invoiceSnapshot(invoice, status),
            subscription: subscriptionId === undefined ? null : await currentSubscription(idOf(subscriptionId)),
          },
        ];
      }
      default:
        return [];
    }
  }

  return {
    name: 'stripe',

    async createCustomer(customer) {
      const created = await stripe.customers.create({
        email: customer.email,
        name: customer.name,
        metadata: { userId: customer.userId },
      });
      return created.id;
    },

    async createCheckoutSession({ customer, planId }) {
      const session = await stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: customer.customerId,
        client_reference_id: customer.userId,
        line_items: [{ price: priceOf(planId), quantity: 1 }],
        // On the subscription too, so its webhooks name our user without a customer lookup.
        subscription_data: { metadata: { userId: customer.userId } },
        success_url: `${options.publicUrl}/success?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${options.publicUrl}/pricing`,
      });
      if (!session.url) throw new Error(`Stripe checkout session ${session.id} came without a URL`);
      return { id: session.id, url: session.url };
    },

    async createPortalSession({ customer, returnUrl }) {
      const session = await stripe.billingPortal.sessions.create({ customer: customer.customerId, return_url: returnUrl });
      return { url: session.url };
    },

    async checkoutSessionEvents(sessionId, userId) {
      const session = await stripe.checkout.sessions
        .retrieve(sessionId, { expand: ['subscription.latest_invoice'] })
        .catch((error: unknown) => {
          if (isNotFound(error)) return null;
          throw error;
        });
      // payment_status turns 'paid' only when the session completed and its payment cleared.
      if (!session || session.client_reference_id !== userId || session.payment_status !== 'paid') return [];
      const subscription = expanded(session.subscription);
      if (!subscription) return [];
      const snapshot = subscriptionSnapshot(subscription);
      const events: PaymentEvent[] = [{ id: `checkout_${session.id}`, type: 'checkout.completed', userId, subscription: snapshot }];
      const invoice = expanded(subscription.latest_invoice);
      if (invoice?.status === 'paid') {
        events.push({
          id: `checkout_invoice_${invoice.id}`,
          type: 'invoice.paid',
          invoice: await invoiceSnapshot(invoice, 'paid'),
          subscription: snapshot,
        });
      }
      return events;
    },

    async previewPlanChange(providerSubscriptionId, planId, prorationDate) {
      const current = await stripe.subscriptions.retrieve(providerSubscriptionId);
      const item = onlyItem(current);
      // The invoice the change below would create, as of the same moment.
      const preview = await stripe.invoices.createPreview({
        customer: idOf(current.customer),
        subscription: providerSubscriptionId,
        subscription_details: {
          items: [{ id: item.id, price: priceOf(planId) }],
          proration_behavior: 'always_invoice',
          proration_date: unixTime(prorationDate),
        },
      });
      // Only its proration lines are charged now (Stripe's advice: the preview may also show the
      // next period); a one-item subscription's preview has three lines at most, all on this page.
      const amountCents = preview.lines.data
        .filter((line) => line.parent?.subscription_item_details?.proration === true)
        .reduce((sum, line) => sum + line.amount, 0);
      return { amountCents, currency: preview.currency, periodEnd: isoTime(item.current_period_end) };
    },

    async changePlan(providerSubscriptionId, planId, prorationDate) {
      const current = await stripe.subscriptions.retrieve(providerSubscriptionId);
      const item = onlyItem(current);
      const updated = await stripe.subscriptions.update(providerSubscriptionId, {
        items: [{ id: item.id, price: priceOf(planId) }],
        // Invoice the prorated difference now rather than at renewal, and refuse the change
        // when that payment fails, so a plan is never moved up without being paid for.
        proration_behavior: 'always_invoice',
        payment_behavior: 'error_if_incomplete',
        // The previewed moment, so Stripe charges exactly the amount the user confirmed.
        ...(prorationDate ? { proration_date: unixTime(prorationDate) } : {}),
      });
      return answerEvent(updated);
    },

    async cancelAtPeriodEnd(providerSubscriptionId) {
      return answerEvent(await stripe.subscriptions.update(providerSubscriptionId, { cancel_at_period_end: true }));
    },

    async cancelNow(providerSubscriptionId) {
      return answerEvent(await stripe.subscriptions.cancel(providerSubscriptionId));
    },

    async reactivate(providerSubscriptionId) {
      return answerEvent(await stripe.subscriptions.update(providerSubscriptionId, { cancel_at_period_end: false }));
    },

    async refund(invoice) {
      const paymentIntent = invoice.paymentRef ?? (await paymentIntentOf(invoice.providerInvoiceId));
      if (!paymentIntent) throw new Error(`Stripe invoice ${invoice.providerInvoiceId} has no payment to refund`);
      const refund = await stripe.refunds.create(
        {
          payment_intent: paymentIntent,
          // The invoice's amount, not the whole PaymentIntent: a refund undoes this invoice only.
          amount: invoice.amountCents,
          reason: 'requested_by_customer',
        },
        // Two cancellations racing each other get one refund: Stripe answers a repeat with the first.
        { idempotencyKey: `refund_${invoice.providerInvoiceId}` },
      );
      return [
        {
          id: `api_${refund.id}`,
          type: 'invoice.refunded',
          refundOf: invoice.providerInvoiceId,
          invoice: {
            providerInvoiceId: refund.id,
            providerSubscriptionId: null,
            customerId: invoice.customerId,
            amountCents: -refund.amount,
            currency: refund.currency,
            status: refundStatus(refund.status),
            createdAt: isoTime(refund.created),
            invoiceUrl: null,
            paymentRef: null,
          },
        },
      ];
    },

    async parseWebhook(rawBody, signature) {
      if (!signature) throw new WebhookSignatureError('The Stripe-Signature header is missing');
      let event: Stripe.Event;
      try {
        event = await stripe.webhooks.constructEventAsync(rawBody, signature, config.webhookSecret);
      } catch (error) {
        throw new WebhookSignatureError(error instanceof Error ? error.message : 'The Stripe signature does not match');
      }
      return eventsOf(event);
    },
  };
}

/** host, port and protocol for the SDK when the API is elsewhere (a test stand-in, stripe-mock). */
function apiAddress(apiUrl: string | undefined): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'https:' ? 'https' : 'http';
  return { host: url.hostname, port: url.port || (protocol === 'https' ? 443 : 80), protocol };
}

/** Stripe fields hold either an id or, when expanded, the object itself. */
function idOf(value: string | { id: string }): string {
  return typeof value === 'string' ? value : value.id;
}

/** A field asked for with `expand`: the object, or null when Stripe has none. */
function expanded<T>(value: string | T | null): T | null {
  if (typeof value === 'string') throw new Error(`Stripe did not expand ${value}`);
  return value;
}

/** One item per subscription (one plan). */
function onlyItem(subscription: Stripe.Subscription): Stripe.SubscriptionItem {
  const item = subscription.items.data[0];
  if (!item) throw new Error(`Stripe subscription ${subscription.id} has no item`);
  return item;
}

/** Stripe's timestamps are whole seconds; a proration date is always a whole second (the billing service makes it so). */
function unixTime(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

function isoTime(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString();
}

function isNotFound(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeError && error.statusCode === 404;
}

/** A refund succeeds, waits (pending, requires_action) or fails (failed, canceled). */
function refundStatus(status: string | null): InvoiceSnapshot['status'] {
  if (status === 'succeeded') return 'paid';
  if (status === 'failed' || status === 'canceled') return 'failed';
  return 'pending';
}
