import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PaymentProvider, WebhookSignatureError } from './payment-provider.ts';
import { createStripePaymentProvider } from './stripe-payment-provider.ts';
import { startStripeStandIn, type StripeObject, type StripeStandIn } from '../../../test/helpers/stripe-stand-in.ts';

const WEBHOOK_SECRET = 'whsec_provider_test';
const PUBLIC_URL = 'https://drive.example.com';
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

let standIn: StripeStandIn;
let provider: PaymentProvider;

beforeAll(async () => {
  standIn = await startStripeStandIn();
  provider = createStripePaymentProvider(
    {
      provider: 'stripe',
      secretKey: 'sk_test_provider',
      webhookSecret: WEBHOOK_SECRET,
      prices: { PRO: 'price_pro', PREMIUM: 'price_premium' },
      apiUrl: standIn.url,
    },
    { publicUrl: PUBLIC_URL },
  );
});
afterAll(() => standIn.close());

/** A customer created through the adapter, as the billing service does once per user. */
async function newCustomer() {
  const userId = `user_${randomBytes(4).toString('hex')}`;
  const customerId = await provider.createCustomer({ userId, email: `${userId}@example.com`, name: 'Ada Lovelace' });
  return { userId, email: `${userId}@example.com`, name: 'Ada Lovelace', customerId };
}

/** A customer who went through the adapter's checkout and paid it on the stand-in. */
async function subscribedCustomer(planId: 'PRO' | 'PREMIUM' = 'PRO') {
  const customer = await newCustomer();
  const session = await provider.createCheckoutSession({ customer, planId });
  const { subscription, invoice } = standIn.completeCheckout(session.id, 999);
  return { customer, session, subscription, invoice };
}

/** The body and Stripe-Signature header Stripe would send for this event. */
function signedWebhook(type: string, object: StripeObject, secret = WEBHOOK_SECRET) {
  const id = `evt_${randomBytes(8).toString('hex')}`;
  const payload = JSON.stringify({
    id,
    object: 'event',
    type,
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  });
  return { id, body: Buffer.from(payload), signature: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
}

describe('requests to the Stripe API', () => {
  it('creates a customer with email, name and our user id', async () => {
    const customer = await newCustomer();

    expect(customer.customerId).toMatch(/^cus_/);
    expect(standIn.lastRequest('POST', '/v1/customers').body).toEqual({
      email: customer.email,
      name: 'Ada Lovelace',
      'metadata[userId]': customer.userId,
    });
    expect(standIn.get(customer.customerId).metadata).toEqual({ userId: customer.userId });
  });

  it('opens a subscription checkout for the plan price, bound to the customer and user', async () => {
    const customer = await newCustomer();
    const session = await provider.createCheckoutSession({ customer, planId: 'PREMIUM' });

    expect(session).toEqual({ id: expect.stringMatching(/^cs_test_/), url: standIn.get(session.id).url });
    expect(standIn.lastRequest('POST', '/v1/checkout/sessions').body).toEqual({
      mode: 'subscription',
      customer: customer.customerId,
      client_reference_id: customer.userId,
      'line_items[0][price]': 'price_premium',
      'line_items[0][quantity]': '1',
      'subscription_data[metadata][userId]': customer.userId,
      success_url: `${PUBLIC_URL}/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${PUBLIC_URL}/pricing`,
    });
  });

  it('refuses a checkout for the Free plan without calling Stripe', async () => {
    const customer = await newCustomer();
    const before = standIn.requests().length;

    await expect(provider.createCheckoutSession({ customer, planId: 'FREE' })).rejects.toThrow(/FREE plan/);
    expect(standIn.requests()).toHaveLength(before);
  });

  it('opens the billing portal for the customer with the return URL', async () => {
    const customer = await newCustomer();
    const portal = await provider.createPortalSession({ customer, returnUrl: `${PUBLIC_URL}/subscription` });

    expect(portal.url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\//);
    expect(standIn.lastRequest('POST', '/v1/billing_portal/sessions').body).toEqual({
      customer: customer.customerId,
      return_url: `${PUBLIC_URL}/subscription`,
    });
  });

  it('changes the plan by moving the subscription item to the new price, invoiced with proration now', async () => {
    const { subscription } = await subscribedCustomer('PRO');
    const itemId = subscription.items.data[0].id;

    const events = await provider.changePlan(subscription.id, 'PREMIUM');

    expect(standIn.lastRequest('POST', `/v1/subscriptions/${subscription.id}`).body).toEqual({
      'items[0][id]': itemId,
      'items[0][price]': 'price_premium',
      proration_behavior: 'always_invoice',
      payment_behavior: 'error_if_incomplete',
    });
    expect(standIn.get(subscription.id).items.data[0].price.id).toBe('price_premium');
    expect(events).toEqual([
      {
        id: expect.stringMatching(new RegExp(`^api_${subscription.id}_.+`)),
        type: 'subscription.changed',
        subscription: expect.objectContaining({ providerSubscriptionId: subscription.id, planId: 'PREMIUM', status: 'active' }),
      },
    ]);
  });

  it("previews a change with Stripe's invoice preview, counting only its proration lines, and changes as of the same second", async () => {
    const { subscription } = await subscribedCustomer('PRO');
    const item = subscription.items.data[0];
    // A third of the 30-day period left: $10 a month more is 333 cents (666 charged, 333 credited).
    const at = new Date((item.current_period_end - 10 * 24 * 60 * 60) * 1000);

    const quote = await provider.previewPlanChange(subscription.id, 'PREMIUM', at);

    expect(quote).toEqual({ amountCents: 333, currency: 'usd', periodEnd: new Date(item.current_period_end * 1000).toISOString() });
    expect(standIn.lastRequest('POST', '/v1/invoices/create_preview').body).toEqual({
      customer: subscription.customer,
      subscription: subscription.id,
      'subscription_details[items][0][id]': item.id,
      'subscription_details[items][0][price]': 'price_premium',
      'subscription_details[proration_behavior]': 'always_invoice',
      'subscription_details[proration_date]': String(at.getTime() / 1000),
    });
    expect(standIn.get(subscription.id).items.data[0].price.id).toBe('price_pro');

    await provider.changePlan(subscription.id, 'PREMIUM', at);
    expect(standIn.lastRequest('POST', `/v1/subscriptions/${subscription.id}`).body.proration_date).toBe(String(at.getTime() / 1000));
    expect(standIn.get(standIn.get(subscription.id).latest_invoice).total).toBe(333);
  });

  it('cancels at period end and reactivates through cancel_at_period_end, each answer its own event', async () => {
    const { subscription } = await subscribedCustomer();
    const path = `/v1/subscriptions/${subscription.id}`;

    const [canceled] = await provider.cancelAtPeriodEnd(subscription.id);
    expect(standIn.lastRequest('POST', path).body).toEqual({ cancel_at_period_end: 'true' });
    expect(canceled).toMatchObject({ type: 'subscription.changed', subscription: { cancelAtPeriodEnd: true, status: 'active' } });

    const [reactivated] = await provider.reactivate(subscription.id);
    expect(standIn.lastRequest('POST', path).body).toEqual({ cancel_at_period_end: 'false' });
    expect(reactivated).toMatchObject({ type: 'subscription.changed', subscription: { cancelAtPeriodEnd: false } });
    expect(reactivated!.id).not.toBe(canceled!.id);
  });

  it('ends a subscription today with DELETE (account deletion)', async () => {
    const { subscription } = await subscribedCustomer();
    const [ended] = await provider.cancelNow(subscription.id);
    expect(standIn.lastRequest('DELETE', `/v1/subscriptions/${subscription.id}`)).toBeDefined();
    expect(ended).toMatchObject({
      type: 'subscription.changed',
      subscription: { providerSubscriptionId: subscription.id, status: 'canceled' },
    });
  });

  it('refunds the PaymentIntent that paid the invoice, for the invoice amount', async () => {
    const { customer, session } = await subscribedCustomer();
    const paid = (await provider.checkoutSessionEvents(session.id, customer.userId)).find((event) => event.type === 'invoice.paid');
    if (paid?.type !== 'invoice.paid') throw new Error('checkout gave no paid invoice');

    const events = await provider.refund(paid.invoice);

    expect(standIn.lastRequest('POST', '/v1/refunds').body).toEqual({
      payment_intent: paid.invoice.paymentRef,
      amount: '999',
      reason: 'requested_by_customer',
    });
    // Keyed by the invoice: two cancellations racing each other get one refund from Stripe.
    expect(standIn.lastRequest('POST', '/v1/refunds').idempotencyKey).toBe(`refund_${paid.invoice.providerInvoiceId}`);
    expect(events).toEqual([
      {
        id: expect.stringMatching(/^api_re_/),
        type: 'invoice.refunded',
        refundOf: paid.invoice.providerInvoiceId,
        invoice: {
          providerInvoiceId: expect.stringMatching(/^re_/),
          providerSubscriptionId: null,
          customerId: customer.customerId,
          amountCents: -999,
          currency: 'usd',
          status: 'paid',
          createdAt: expect.stringMatching(ISO),
          invoiceUrl: null,
          paymentRef: null,
        },
      },
    ]);
  });

  it('finds the PaymentIntent through the invoice payments when the refund has no payment reference', async () => {
    const { customer, invoice } = await subscribedCustomer();

    await provider.refund({
      providerInvoiceId: invoice.id,
      paymentRef: null,
      customerId: customer.customerId,
      amountCents: 999,
      currency: 'usd',
    });

    expect(standIn.lastRequest('GET', '/v1/invoice_payments').query).toMatchObject({ invoice: invoice.id, status: 'paid' });
    expect(standIn.lastRequest('POST', '/v1/refunds').body.payment_intent).toMatch(/^pi_/);
  });

  it('names an unknown Stripe price instead of guessing a plan', async () => {
    const { subscription } = await subscribedCustomer();
    standIn.updateSubscription(subscription.id, { price: 'price_legacy' });

    await expect(provider.cancelAtPeriodEnd(subscription.id)).rejects.toThrow(
      /price_legacy is neither STRIPE_PRICE_PRO nor STRIPE_PRICE_PREMIUM/,
    );
  });
});

describe('checkoutSessionEvents', () => {
  it('reports a paid checkout as checkout.completed plus the paid first invoice', async () => {
    const { customer, session, subscription, invoice } = await subscribedCustomer('PREMIUM');
    const item = subscription.items.data[0];

    const events = await provider.checkoutSessionEvents(session.id, customer.userId);

    const snapshot = {
      providerSubscriptionId: subscription.id,
      customerId: customer.customerId,
      userId: customer.userId,
      planId: 'PREMIUM',
      status: 'active',
      cancelAtPeriodEnd: false,
      currentPeriodStart: new Date(item.current_period_start * 1000).toISOString(),
      currentPeriodEnd: new Date(item.current_period_end * 1000).toISOString(),
      createdAt: new Date(subscription.created * 1000).toISOString(),
    };
    expect(events).toEqual([
      { id: `checkout_${session.id}`, type: 'checkout.completed', userId: customer.userId, subscription: snapshot },
      {
        id: `checkout_invoice_${invoice.id}`,
        type: 'invoice.paid',
        subscription: snapshot,
        invoice: {
          providerInvoiceId: invoice.id,
          providerSubscriptionId: subscription.id,
          customerId: customer.customerId,
          amountCents: 999,
          currency: 'usd',
          status: 'paid',
          createdAt: new Date(invoice.created * 1000).toISOString(),
          invoiceUrl: invoice.hosted_invoice_url,
          paymentRef: expect.stringMatching(/^pi_/),
        },
      },
    ]);
  });

  it("gives nothing for another user's session", async () => {
    const { session } = await subscribedCustomer();

    expect(await provider.checkoutSessionEvents(session.id, 'someone_else')).toEqual([]);
  });

  it('gives nothing for a session not paid yet', async () => {
    const customer = await newCustomer();
    const session = await provider.createCheckoutSession({ customer, planId: 'PRO' });

    expect(await provider.checkoutSessionEvents(session.id, customer.userId)).toEqual([]);
  });

  it('gives nothing for a session Stripe does not know', async () => {
    expect(await provider.checkoutSessionEvents('cs_test_unknown', 'user_1')).toEqual([]);
    expect(standIn.lastRequest('GET', '/v1/checkout/sessions/cs_test_unknown')).toBeDefined();
  });
});

describe('parseWebhook', () => {
  it('refuses a signature made with another secret', async () => {
    const { subscription } = await subscribedCustomer();
    const webhook = signedWebhook('customer.subscription.updated', subscription, 'whsec_someone_else');

    await expect(provider.parseWebhook(webhook.body, webhook.signature)).rejects.toBeInstanceOf(WebhookSignatureError);
  });

  it('refuses a body changed after signing', async () => {
    const { subscription } = await subscribedCustomer();
    const webhook = signedWebhook('customer.subscription.updated', subscription);
    const tampered = Buffer.from(webhook.body.toString().replace('"active"', '"canceled"'));

    await expect(provider.parseWebhook(tampered, webhook.signature)).rejects.toBeInstanceOf(WebhookSignatureError);
  });

  it('refuses a request without a signature', async () => {
    const { subscription } = await subscribedCustomer();
    const webhook = signedWebhook('customer.subscription.updated', subscription);

    await expect(provider.parseWebhook(webhook.body, undefined)).rejects.toBeInstanceOf(WebhookSignatureError);
  });

  it('turns checkout.session.completed into checkout.completed with the subscription read fresh', async () => {
    const { customer, session, subscription } = await subscribedCustomer();
    standIn.updateSubscription(subscription.id, { cancel_at_period_end: true });
    const webhook = signedWebhook('checkout.session.completed', standIn.get(session.id));

    const events = await provider.parseWebhook(webhook.body, webhook.signature);

    expect(events).toEqual([
      {
        id: webhook.id,
        type: 'checkout.completed',
        userId: customer.userId,
        subscription: expect.objectContaining({ providerSubscriptionId: subscription.id, planId: 'PRO', cancelAtPeriodEnd: true }),
      },
    ]);
  });

  it.each([
    ['a one-off payment', { mode: 'payment', subscription: null }],
    ['no user of ours (a Payment Link)', { client_reference_id: null }],
  ])('gives nothing for a completed checkout with %s', async (_, changes) => {
    const { session } = await subscribedCustomer();
    const webhook = signedWebhook('checkout.session.completed', { ...standIn.get(session.id), ...changes });

    expect(await provider.parseWebhook(webhook.body, webhook.signature)).toEqual([]);
  });

  it('reports the present state for a late customer.subscription.updated, not the state it carries', async () => {
    const { subscription: stale } = await subscribedCustomer();
    standIn.updateSubscription(stale.id, { status: 'canceled' });
    const webhook = signedWebhook('customer.subscription.updated', stale);

    const events = await provider.parseWebhook(webhook.body, webhook.signature);

    expect(stale.status).toBe('active');
    expect(events).toEqual([
      {
        id: webhook.id,
        type: 'subscription.changed',
        subscription: expect.objectContaining({ providerSubscriptionId: stale.id, status: 'canceled' }),
      },
    ]);
  });

  it('reads customer.subscription.created fresh as well', async () => {
    const { subscription } = await subscribedCustomer();
    standIn.updateSubscription(subscription.id, { price: 'price_premium' });
    const webhook = signedWebhook('customer.subscription.created', subscription);

    const [event] = await provider.parseWebhook(webhook.body, webhook.signature);

    expect(event).toMatchObject({ id: webhook.id, type: 'subscription.changed', subscription: { planId: 'PREMIUM' } });
  });

  it('reads customer.subscription.deleted fresh while Stripe still has the subscription', async () => {
    const { subscription } = await subscribedCustomer();
    standIn.updateSubscription(subscription.id, { status: 'canceled' });
    const webhook = signedWebhook('customer.subscription.deleted', { ...subscription, status: 'past_due' });

    const [event] = await provider.parseWebhook(webhook.body, webhook.signature);

    expect(event).toMatchObject({ type: 'subscription.changed', subscription: { status: 'canceled' } });
  });

  it("falls back to the event's own subscription when Stripe no longer has a deleted one", async () => {
    const { subscription } = await subscribedCustomer();
    standIn.remove(subscription.id);
    const webhook = signedWebhook('customer.subscription.deleted', { ...subscription, status: 'canceled' });

    const events = await provider.parseWebhook(webhook.body, webhook.signature);

    expect(standIn.lastRequest('GET', `/v1/subscriptions/${subscription.id}`)).toBeDefined();
    expect(events).toEqual([
      {
        id: webhook.id,
        type: 'subscription.changed',
        subscription: expect.objectContaining({ providerSubscriptionId: subscription.id, status: 'canceled' }),
      },
    ]);
  });

  it('turns invoice.paid into the invoice with its PaymentIntent and the fresh subscription', async () => {
    const { customer, subscription, invoice } = await subscribedCustomer();
    standIn.updateSubscription(subscription.id, { status: 'past_due' });
    const webhook = signedWebhook('invoice.paid', invoice);

    const events = await provider.parseWebhook(webhook.body, webhook.signature);

    expect(events).toEqual([
      {
        id: webhook.id,
        type: 'invoice.paid',
        invoice: expect.objectContaining({
          providerInvoiceId: invoice.id,
          providerSubscriptionId: subscription.id,
          customerId: customer.customerId,
          amountCents: 999,
          status: 'paid',
          paymentRef: expect.stringMatching(/^pi_/),
        }),
        subscription: expect.objectContaining({ providerSubscriptionId: subscription.id, status: 'past_due' }),
      },
    ]);
  });

  it('turns invoice.payment_failed into a failed invoice for the amount due, with nothing to refund', async () => {
    const { subscription, invoice } = await subscribedCustomer();
    standIn.updateSubscription(subscription.id, { status: 'past_due' });
    const failed = {
      ...invoice,
      id: 'in_renewal_failed',
      status: 'open',
      amount_due: 999,
      amount_paid: 0,
      billing_reason: 'subscription_cycle',
    };
    const webhook = signedWebhook('invoice.payment_failed', failed);

    const [event] = await provider.parseWebhook(webhook.body, webhook.signature);

    expect(event).toMatchObject({
      id: webhook.id,
      type: 'invoice.payment_failed',
      invoice: { providerInvoiceId: 'in_renewal_failed', amountCents: 999, status: 'failed', paymentRef: null },
      subscription: { status: 'past_due' },
    });
  });

  it('reports no subscription for an invoice that belongs to none', async () => {
    const { invoice } = await subscribedCustomer();
    const webhook = signedWebhook('invoice.paid', { ...invoice, parent: null });

    const [event] = await provider.parseWebhook(webhook.body, webhook.signature);

    expect(event).toMatchObject({ type: 'invoice.paid', invoice: { providerSubscriptionId: null }, subscription: null });
  });

  it.each([
    ['active', 'active'],
    ['trialing', 'active'],
    ['past_due', 'past_due'],
    ['unpaid', 'unpaid'],
    ['incomplete', 'incomplete'],
    ['canceled', 'canceled'],
    ['incomplete_expired', 'canceled'],
    ['paused', 'canceled'],
  ])('maps the Stripe status %s to %s', async (stripeStatus, status) => {
    const { subscription } = await subscribedCustomer();
    standIn.updateSubscription(subscription.id, { status: stripeStatus });
    const webhook = signedWebhook('customer.subscription.updated', subscription);

    const [event] = await provider.parseWebhook(webhook.body, webhook.signature);

    expect(event).toMatchObject({ subscription: { status } });
  });

  it('gives nothing for event types the product does not use', async () => {
    const customer = await newCustomer();
    const webhook = signedWebhook('customer.created', standIn.get(customer.customerId));

    expect(await provider.parseWebhook(webhook.body, webhook.signature)).toEqual([]);
  });
});
