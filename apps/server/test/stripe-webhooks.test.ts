import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { startStripeStandIn, type StripeObject, type StripeStandIn } from './helpers/stripe-stand-in.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

const WEBHOOK_SECRET = 'whsec_test';
let standIn: StripeStandIn;
let server: TestServer;
let catalogue: Array<{ id: string; storageLimit: number; maxFileSize: number | null }>;

beforeAll(async () => {
  standIn = await startStripeStandIn();
  server = await startTestServer({
    env: {
      PAYMENTS_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_x',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_PRICE_PRO: 'price_pro',
      STRIPE_PRICE_PREMIUM: 'price_premium',
      STRIPE_API_URL: standIn.url,
    },
  });
  catalogue = (await server.request('GET', '/api/subscriptions/plans')).body.plans;
});
afterAll(async () => {
  await server?.close();
  await standIn?.close();
});

/** A plan's limits as the catalogue publishes them, so the tests follow config/plans.json. */
function limitsOf(planId: 'FREE' | 'PRO') {
  const plan = catalogue.find((candidate) => candidate.id === planId);
  if (!plan) throw new Error(`the catalogue has no ${planId}`);
  return plan;
}

/** A Stripe event as Stripe signs and sends it; deliver() posts it, as often as a test likes. */
function stripeEvent(type: string, object: StripeObject) {
  const payload = JSON.stringify({
    id: `evt_${randomBytes(8).toString('hex')}`,
    object: 'event',
    type,
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  });
  return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) };
}

function deliver(event: { payload: string; signature?: string }) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (event.signature) headers['stripe-signature'] = event.signature;
  return server.request('POST', '/api/webhooks/stripe', { rawBody: event.payload, headers });
}

async function deliverOk(type: string, object: StripeObject) {
  const response = await deliver(stripeEvent(type, object));
  expect(response.status).toBe(200);
}

/** A user who asked the app for a Pro checkout and paid it on the stand-in (now, or `at`); no webhook sent yet. */
async function paidCheckout(at?: Date) {
  const user = await createUser(server);
  const created = await server.request('POST', '/api/subscriptions/create-checkout-session', {
    token: user.token,
    body: { planType: 'PRO' },
  });
  expect(created.status).toBe(200);
  const sessionId = new URL(created.body.sessionUrl).pathname.split('/').pop()!;
  return { token: user.token, sessionId, ...standIn.completeCheckout(sessionId, 999, at) };
}

async function current(token: string, query = '') {
  const response = await server.request('GET', `/api/subscriptions/current${query}`, { token });
  expect(response.status).toBe(200);
  return response.body;
}

describe('POST /api/webhooks/stripe', () => {
  it('answers 400 to a signature made with another secret, and to none', async () => {
    const { subscription } = await paidCheckout();
    const event = stripeEvent('customer.subscription.updated', subscription);
    const forged = Stripe.webhooks.generateTestHeaderString({ payload: event.payload, secret: 'whsec_someone_else' });

    for (const signature of [forged, undefined]) {
      const response = await deliver({ payload: event.payload, signature });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('BAD_SIGNATURE');
    }
    expect((await deliver(event)).status).toBe(200);
  });

  it('moves the plan on checkout.session.completed: the limits the files API enforces follow', async () => {
    const { token, sessionId, subscription } = await paidCheckout();
    expect((await current(token)).plan).toBe('FREE');

    await deliverOk('checkout.session.completed', standIn.get(sessionId));

    const body = await current(token);
    expect(body).toMatchObject({
      plan: 'PRO',
      storageLimit: limitsOf('PRO').storageLimit,
      subscription: { status: 'active', planId: 'PRO', cancelAtPeriodEnd: false },
    });
    expect(body.subscription.currentPeriodEnd).toBe(new Date(subscription.items.data[0].current_period_end * 1000).toISOString());
    const uploadConfig = await server.request('GET', '/api/files/upload-config', { token });
    expect(uploadConfig.body).toMatchObject({ userPlan: 'PRO', userMaxFileSize: limitsOf('PRO').maxFileSize });
  });

  it('applies the same event once, even when Stripe has moved on before the repeat arrives', async () => {
    const { token, sessionId, subscription, invoice } = await paidCheckout();
    await deliverOk('checkout.session.completed', standIn.get(sessionId));
    const paid = stripeEvent('invoice.paid', invoice);

    expect((await deliver(paid)).status).toBe(200);
    standIn.updateSubscription(subscription.id, { price: 'price_premium' });
    expect((await deliver(paid)).status).toBe(200);

    const body = await current(token);
    expect(body.billingHistory).toEqual([
      {
        id: invoice.id,
        invoiceId: invoice.id,
        amount: 9.99,
        currency: 'usd',
        date: new Date(invoice.created * 1000).toISOString(),
        status: 'paid',
        invoiceUrl: invoice.hosted_invoice_url,
      },
    ]);
    // Read fresh, the repeat would have said Business: it was recorded and skipped instead.
    expect(body.plan).toBe('PRO');
  });

  it('lets the Success screen apply the checkout first; the webhooks after it add nothing twice', async () => {
    const { token, sessionId, invoice } = await paidCheckout();

    expect(await current(token, `?session_id=${sessionId}`)).toMatchObject({
      plan: 'PRO',
      billingHistory: [{ invoiceId: invoice.id, status: 'paid' }],
    });
    await deliverOk('checkout.session.completed', standIn.get(sessionId));
    await deliverOk('invoice.paid', invoice);

    const body = await current(token);
    expect(body.billingHistory).toHaveLength(1);
    expect(body.history.map((entry: { type: string; planName: string }) => `${entry.type} ${entry.planName}`)).toEqual(['upgrade Pro']);
  });

  it('ends a refunded subscription at once, at Stripe too', async () => {
    // Paid at the server's time: the refund is for a cancellation within 30 days of it.
    const { token, sessionId, subscription } = await paidCheckout(server.clock.now());
    expect((await current(token, `?session_id=${sessionId}`)).plan).toBe('PRO');

    const canceled = await server.request('POST', '/api/subscriptions/cancel', { token });
    expect(canceled.status).toBe(200);
    expect(canceled.body.subscription.status).toBe('canceled');
    expect(standIn.lastRequest('POST', '/v1/refunds').body).toMatchObject({ amount: '999' });
    standIn.lastRequest('DELETE', `/v1/subscriptions/${subscription.id}`);
    expect(await current(token)).toMatchObject({
      plan: 'FREE',
      storageLimit: limitsOf('FREE').storageLimit,
      subscription: { status: 'canceled' },
      billingHistory: [{ amount: -9.99 }, { amount: 9.99 }],
    });
  });
});
