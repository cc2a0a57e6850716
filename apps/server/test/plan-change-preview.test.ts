import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { subscribe } from '@cloudvault/test-support/checkout';
import { startStripeStandIn, type StripeStandIn } from './helpers/stripe-stand-in.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

const DAY = 24 * 60 * 60 * 1000;
const MINUTE = 60 * 1000;

/**
 * GET /api/subscriptions/preview, then POST /api/subscriptions/upgrade with its prorationDate:
 * on Stripe (the HTTP stand-in) and on the local test checkout, the amount confirmed is the
 * amount charged, even when the change is confirmed minutes after the preview.
 */

function preview(server: TestServer, token: string, planId: string) {
  return server.request('GET', `/api/subscriptions/preview?planId=${planId}`, { token });
}

function upgrade(server: TestServer, token: string, body: Record<string, unknown>) {
  return server.request('POST', '/api/subscriptions/upgrade', { token, body });
}

describe('on Stripe', () => {
  let standIn: StripeStandIn;
  let server: TestServer;
  // The subscription's period is 1 to 31 March (the stand-in's 30 days); the server's clock is 10.5 days in.
  const periodStart = new Date('2026-03-01T00:00:00.000Z');

  beforeAll(async () => {
    standIn = await startStripeStandIn();
    server = await startTestServer({
      clockStart: new Date(periodStart.getTime() + 10.5 * DAY),
      env: {
        PAYMENTS_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_x',
        STRIPE_WEBHOOK_SECRET: 'whsec_test',
        STRIPE_PRICE_PRO: 'price_pro',
        STRIPE_PRICE_PREMIUM: 'price_premium',
        STRIPE_API_URL: standIn.url,
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await standIn?.close();
  });

  /** A Pro subscriber whose checkout the app has seen (the Success screen's check). */
  async function proSubscriber() {
    const { token } = await createUser(server);
    const created = await server.request('POST', '/api/subscriptions/create-checkout-session', { token, body: { planType: 'PRO' } });
    const sessionId = new URL(created.body.sessionUrl).pathname.split('/').pop()!;
    const { subscription } = standIn.completeCheckout(sessionId, 999, periodStart);
    expect((await server.request('GET', `/api/subscriptions/current?session_id=${sessionId}`, { token })).body.plan).toBe('PRO');
    return { token, subscriptionId: subscription.id as string };
  }

  it("previews with Stripe's invoice preview, then charges exactly that with the same proration date", async () => {
    const { token, subscriptionId } = await proSubscriber();

    const shown = await preview(server, token, 'PREMIUM');
    expect(shown.status).toBe(200);
    // $10 more a month for 19.5 of 30 days: 650 cents.
    expect(shown.body).toEqual({
      planId: 'PREMIUM',
      price: 19.99,
      amountNow: 6.5,
      currency: 'usd',
      prorationDate: server.clock.now().toISOString(),
      daysLeft: 20,
      nextRenewal: { date: '2026-03-31T00:00:00.000Z', amount: 19.99 },
    });
    const asked = standIn.lastRequest('POST', '/v1/invoices/create_preview').body;
    expect(asked).toMatchObject({
      subscription: subscriptionId,
      'subscription_details[items][0][price]': 'price_premium',
      'subscription_details[proration_behavior]': 'always_invoice',
      'subscription_details[proration_date]': String(server.clock.now().getTime() / 1000),
    });
    expect(standIn.get(subscriptionId).items.data[0].price.id).toBe('price_pro');

    // Confirmed ten minutes later: prorated as of the preview, not of the click.
    server.clock.advance(10 * MINUTE);
    const changed = await upgrade(server, token, { planId: 'PREMIUM', prorationDate: shown.body.prorationDate });
    expect(changed.status).toBe(200);
    expect(changed.body.subscription.planId).toBe('PREMIUM');
    expect(standIn.lastRequest('POST', `/v1/subscriptions/${subscriptionId}`).body).toMatchObject({
      'items[0][price]': 'price_premium',
      proration_behavior: 'always_invoice',
      proration_date: asked['subscription_details[proration_date]'],
    });
    const invoice = standIn.get(standIn.get(subscriptionId).latest_invoice);
    expect(invoice.total).toBe(650);
  });

  it('shows a downgrade as a credit', async () => {
    const { token } = await proSubscriber();
    expect((await upgrade(server, token, { planId: 'PREMIUM' })).status).toBe(200);

    const shown = await preview(server, token, 'PRO');
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ planId: 'PRO', price: 9.99, amountNow: -6.5, nextRenewal: { amount: 9.99 } });
  });
});

describe('on the local test checkout', () => {
  /** Sessions expire with the clock: after a jump of days the user signs in again. */
  async function signInAgain(user: { email: string; password: string }): Promise<string> {
    const response = await server.request('POST', '/api/auth/login', { body: { email: user.email, password: user.password } });
    expect(response.status).toBe(200);
    return response.body.token as string;
  }

  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('previews from the period dates and charges the previewed amount when confirmed within the preview lifetime', async () => {
    const user = await createUser(server);
    await subscribe(server, user.token);
    const start = server.clock.now().getTime();
    // The period is 31 days (5 January to 5 February). 1,814,752 s before its end, $10 a month
    // prorates to 677.55 cents, shown as $6.78; twenty minutes later it would be 677.10, $6.77.
    server.clock.advance(31 * DAY - 1_814_752_000);
    const token = await signInAgain(user);

    const shown = await preview(server, token, 'PREMIUM');
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({
      planId: 'PREMIUM',
      price: 19.99,
      amountNow: 6.78,
      currency: 'usd',
      prorationDate: server.clock.now().toISOString(),
      daysLeft: 22,
      nextRenewal: { date: new Date(start + 31 * DAY).toISOString(), amount: 19.99 },
    });

    server.clock.advance(20 * MINUTE);
    const changed = await upgrade(server, token, { planId: 'PREMIUM', prorationDate: shown.body.prorationDate });
    expect(changed.status).toBe(200);
    const current = (await server.request('GET', '/api/subscriptions/current', { token })).body;
    expect(current.plan).toBe('PREMIUM');
    expect(current.billingHistory[0].amount).toBe(6.78);

    // Back down: the credit is the other way round, for the time now left.
    const down = await preview(server, token, 'PRO');
    expect(down.body.amountNow).toBeLessThan(0);
    expect(down.body.nextRenewal).toEqual({ date: new Date(start + 31 * DAY).toISOString(), amount: 9.99 });
  });

  it('refuses a proration date older than the preview lifetime, or from the future', async () => {
    const { token } = await createUser(server);
    await subscribe(server, token);
    server.clock.advance(DAY);
    const shown = await preview(server, token, 'PREMIUM');
    server.clock.advance(31 * MINUTE);

    const stale = await upgrade(server, token, { planId: 'PREMIUM', prorationDate: shown.body.prorationDate });
    expect(stale.status).toBe(400);
    expect(stale.body.code).toBe('PREVIEW_EXPIRED');
    const future = await upgrade(server, token, {
      planId: 'PREMIUM',
      prorationDate: new Date(server.clock.now().getTime() + DAY).toISOString(),
    });
    expect(future.body.code).toBe('PREVIEW_EXPIRED');
    expect((await upgrade(server, token, { planId: 'PREMIUM', prorationDate: 'yesterday' })).status).toBe(400);
    expect((await server.request('GET', '/api/subscriptions/current', { token })).body.plan).toBe('PRO');
  });

  it('answers 400 to an unknown plan and to Free, ALREADY_ON_PLAN to the current one, NO_SUBSCRIPTION without one, 401 without a session', async () => {
    const { token } = await createUser(server);
    const unknown = await preview(server, token, 'BUSINESS');
    expect(unknown.status).toBe(400);
    const none = await preview(server, token, 'PREMIUM');
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ code: 'NO_SUBSCRIPTION', error: expect.stringContaining('no paid subscription') });

    await subscribe(server, token);
    const same = await preview(server, token, 'PRO');
    expect(same.status).toBe(400);
    expect(same.body.code).toBe('ALREADY_ON_PLAN');
    expect((await preview(server, token, 'FREE')).body.code).toBe('PLAN_NOT_PURCHASABLE');
    expect((await server.request('GET', '/api/subscriptions/preview?planId=PREMIUM')).status).toBe(401);
  });
});
