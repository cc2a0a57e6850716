import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { fetchPage as fetchBillingPage, postForm as postBillingForm, subscribe as subscribeVia } from '@cloudvault/test-support/checkout';
import { createFolder, downloadFile, uploadFile } from '@cloudvault/test-support/drive';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

const DAY = 24 * 60 * 60 * 1000;
const MiB = 1024 * 1024;
let server: TestServer;
let plansFile: string;

beforeAll(async () => {
  // Free gets 1 MiB here, so "over the limit after a downgrade" takes a 2 MiB upload.
  const plans = JSON.parse(await readFile(new URL('../config/plans.json', import.meta.url), 'utf8')) as Array<Record<string, unknown>>;
  Object.assign(plans.find((plan) => plan.id === 'FREE') as object, { storageLimit: MiB, maxFileSize: MiB });
  plansFile = path.join(os.tmpdir(), `cloudvault-billing-plans-${process.pid}.json`);
  await writeFile(plansFile, JSON.stringify(plans));
  server = await startTestServer({ env: { PLANS_FILE: plansFile } });
});
afterAll(() => server.close());

const fetchPage = (url: string, init: RequestInit = {}) => fetchBillingPage(server, url, init);
const postForm = (url: string, fields: Record<string, string> = {}) => postBillingForm(server, url, fields);
const subscribe = (token: string, planType: 'PRO' | 'PREMIUM' = 'PRO') => subscribeVia(server, token, planType);

async function current(token: string, query = '') {
  const response = await server.request('GET', `/api/subscriptions/current${query}`, { token });
  expect(response.status).toBe(200);
  return response.body;
}

/** Tokens expire with the clock; after a jump of weeks the user signs in again. */
async function signInAgain(user: { email: string; password: string }) {
  const response = await server.request('POST', '/api/auth/login', { body: { email: user.email, password: user.password } });
  expect(response.status).toBe(200);
  return response.body.token as string;
}

describe('plans and the free state', () => {
  it('publishes the catalogue to anyone, ordered by price, without server-only capabilities', async () => {
    const response = await server.request('GET', '/api/subscriptions/plans');
    expect(response.status).toBe(200);
    expect(response.body.plans.map((plan: { id: string }) => plan.id)).toEqual(['FREE', 'PRO', 'PREMIUM']);
    expect(response.body.plans[1]).toMatchObject({ name: 'Pro', price: 9.99, popular: true, storageLimit: 107374182400 });
    expect(response.body.plans[2]).toMatchObject({ name: 'Business', maxFileSize: null, maxConcurrentUploads: null });
    expect(response.body.plans[0].capabilities).toBeUndefined();
  });

  it('answers a Free user with counters from the database', async () => {
    const { token } = await createUser(server);
    const folder = await createFolder(server, token, 'Docs');
    await uploadFile(server, token, 'hello', { name: 'a.txt', type: 'text/plain', folderId: folder.id });
    await uploadFile(server, token, Buffer.from([0x89, 0x50]), { name: 'b.png', type: 'image/png' });
    await uploadFile(server, token, Buffer.from([0, 0, 0]), { name: 'c.mp4', type: 'video/mp4' });
    const trashed = await uploadFile(server, token, 'gone', { name: 'd.pdf', type: 'application/pdf' });
    await server.request('DELETE', `/api/files/${trashed.body.file.id}`, { token });

    const body = await current(token);
    expect(body).toMatchObject({
      plan: 'FREE',
      planDetails: { name: 'Free', storageFormatted: '1 MB', price: 0 },
      subscription: null,
      storageLimit: MiB,
      filesCount: 3,
      foldersCount: 1,
      fileTypes: { documents: 1, images: 1, videos: 1 },
      billingHistory: [],
      history: [],
    });
    expect(body.storageUsed).toBe(5 + 2 + 3 + 4);
  });

  it('refuses a checkout for Free or an unknown plan, and every billing call without a token', async () => {
    const { token } = await createUser(server);
    expect((await server.request('POST', '/api/subscriptions/create-checkout-session', { token, body: { planType: 'FREE' } })).status).toBe(
      400,
    );
    expect((await server.request('POST', '/api/subscriptions/create-checkout-session', { token, body: { planType: 'GOLD' } })).status).toBe(
      400,
    );
    expect((await server.request('POST', '/api/subscriptions/create-checkout-session', { token, body: {} })).status).toBe(400);
    for (const [method, url] of [
      ['GET', '/api/subscriptions/current'],
      ['POST', '/api/subscriptions/create-checkout-session'],
      ['POST', '/api/subscriptions/create-portal-session'],
      ['POST', '/api/subscriptions/upgrade'],
      ['POST', '/api/subscriptions/cancel'],
      ['POST', '/api/subscriptions/reactivate'],
    ] as const) {
      expect((await server.request(method, url, method === 'POST' ? { body: {} } : {})).status, url).toBe(401);
    }
    expect((await server.request('POST', '/api/subscriptions/cancel', { token })).status).toBe(400);
    expect((await server.request('POST', '/api/subscriptions/reactivate', { token })).status).toBe(400);
    expect((await server.request('POST', '/api/subscriptions/create-portal-session', { token, body: {} })).status).toBe(400);
    expect((await server.request('POST', '/api/subscriptions/upgrade', { token, body: { planId: 'FREE' } })).status).toBe(400);
  });
});

describe('the local test checkout', () => {
  it('shows a clearly marked test page, takes the payment once and moves the limits at once', async () => {
    const { token } = await createUser(server);
    const created = await server.request('POST', '/api/subscriptions/create-checkout-session', { token, body: { planType: 'PRO' } });
    expect(created.body.sessionUrl).toMatch(/\/api\/payments\/local\/checkout\/cs_local_[A-Za-z0-9_-]{22}$/);
    const page = await fetchPage(created.body.sessionUrl);
    expect(page.status).toBe(200);
    expect(page.type).toContain('text/html');
    expect(page.html).toContain('<h1>Test checkout</h1>');
    expect(page.html).toContain('No card is charged');
    expect(page.html).toContain('Pay $9.99');

    const paid = await postForm(`${created.body.sessionUrl}/pay`, { card: '4242 4242 4242 4242' });
    expect(paid.status).toBe(303);
    const sessionId = created.body.sessionUrl.split('/').pop();
    expect(paid.location).toBe(`http://localhost:3000/success?session_id=${sessionId}`);
    expect((await postForm(`${created.body.sessionUrl}/pay`)).status).toBe(404);
    expect((await fetchPage(created.body.sessionUrl)).status).toBe(404);

    const body = await current(token, `?session_id=${sessionId}`);
    expect(body).toMatchObject({
      plan: 'PRO',
      planDetails: { name: 'Pro', storageFormatted: '100 GB', price: 9.99 },
      subscription: { status: 'active', planId: 'PRO', cancelAtPeriodEnd: false, createdAt: server.clock.now().toISOString() },
      storageLimit: 107374182400,
      history: [{ type: 'upgrade', planName: 'Pro' }],
    });
    expect(body.subscription.nextBillingDate).toBe(body.subscription.currentPeriodEnd);
    expect(body.billingHistory).toEqual([
      expect.objectContaining({
        amount: 9.99,
        currency: 'usd',
        status: 'paid',
        invoiceId: expect.stringMatching(/^in_local_/),
        invoiceUrl: expect.stringContaining('/api/payments/local/invoices/in_local_'),
      }),
    ]);
    const invoice = await fetchPage(body.billingHistory[0].invoiceUrl);
    expect(invoice.html).toContain('9.99 USD');

    expect((await server.request('GET', '/api/files/upload-config', { token })).body).toMatchObject({
      userPlan: 'PRO',
      userMaxFileSize: 10737418240,
    });
    expect((await server.request('GET', '/api/user/dashboard', { token })).body.storageInfo).toMatchObject({
      plan: 'PRO',
      storageLimit: 107374182400,
    });
    const again = await server.request('POST', '/api/subscriptions/create-checkout-session', { token, body: { planType: 'PREMIUM' } });
    expect(again.status).toBe(409);
  });

  it('lets a checkout expire after 24 hours unpaid', async () => {
    const { token } = await createUser(server);
    const created = await server.request('POST', '/api/subscriptions/create-checkout-session', { token, body: { planType: 'PRO' } });
    server.clock.advance(DAY + 1000);
    expect((await postForm(`${created.body.sessionUrl}/pay`)).status).toBe(404);
    expect((await current(token)).plan).toBe('FREE');
  });

  it('answers an upgrade without a paid subscription with a checkout URL', async () => {
    const { token } = await createUser(server);
    const response = await server.request('POST', '/api/subscriptions/upgrade', { token, body: { planId: 'PREMIUM' } });
    expect(response.status).toBe(200);
    expect(response.body.checkoutUrl).toMatch(/\/api\/payments\/local\/checkout\//);
    expect((await fetchPage(response.body.checkoutUrl)).html).toContain('Pay $19.99');
  });
});

describe('changes to a paid subscription', () => {
  it('upgrades and downgrades at once with a prorated invoice, and moves the limits', async () => {
    const { token } = await createUser(server);
    await subscribe(token);
    server.clock.advance(DAY);
    const up = await server.request('POST', '/api/subscriptions/upgrade', { token, body: { planId: 'PREMIUM' } });
    expect(up.status).toBe(200);
    expect(up.body.subscription).toMatchObject({ planId: 'PREMIUM', status: 'active' });
    let body = await current(token);
    expect(body.plan).toBe('PREMIUM');
    expect(body.storageLimit).toBe(1024 ** 4);
    // About 29/30 of a month's $10 difference; the exact share depends on the month's length.
    expect(body.billingHistory[0].amount).toBeGreaterThan(9);
    expect(body.billingHistory[0].amount).toBeLessThan(10);
    expect((await server.request('GET', '/api/files/upload-config', { token })).body).toMatchObject({
      userPlan: 'PREMIUM',
      userMaxFileSize: null,
    });

    server.clock.advance(1000);
    const down = await server.request('POST', '/api/subscriptions/upgrade', { token, body: { planId: 'PRO' } });
    expect(down.body.subscription.planId).toBe('PRO');
    body = await current(token);
    expect(body.billingHistory[0].amount).toBeLessThan(0);
    expect(body.history.map((entry: { type: string; planName: string }) => `${entry.type} ${entry.planName}`)).toEqual([
      'downgrade Pro',
      'upgrade Business',
      'upgrade Pro',
    ]);
    expect((await server.request('POST', '/api/subscriptions/upgrade', { token, body: { planId: 'PRO' } })).status).toBe(400);
  });

  it('refunds a cancellation in the first month once per customer, ending that subscription at once', async () => {
    const { token } = await createUser(server);
    await subscribe(token);
    server.clock.advance(3 * DAY);
    const canceled = await server.request('POST', '/api/subscriptions/cancel', { token });
    expect(canceled.status).toBe(200);
    expect(canceled.body.subscription).toMatchObject({
      status: 'canceled',
      nextBillingDate: null,
      currentPeriodEnd: server.clock.now().toISOString(),
    });
    let body = await current(token);
    expect(body).toMatchObject({ plan: 'FREE', storageLimit: MiB, subscription: { status: 'canceled' } });
    expect(body.billingHistory.map((item: { amount: number }) => item.amount)).toEqual([-9.99, 9.99]);
    // The cancellation and the drop to Free happen in the same instant, so in either order.
    expect(body.history.map((entry: { type: string; planName: string }) => `${entry.type} ${entry.planName}`).sort()).toEqual([
      'cancel Free',
      'downgrade Free',
      'upgrade Pro',
    ]);
    expect((await server.request('GET', '/api/files/upload-config', { token })).body).toMatchObject({
      userPlan: 'FREE',
      userMaxFileSize: MiB,
    });

    // Subscribing again: the refund already given, found in the database, leaves this first month paid.
    server.clock.advance(1000);
    await subscribe(token);
    server.clock.advance(DAY);
    const again = await server.request('POST', '/api/subscriptions/cancel', { token });
    expect(again.status).toBe(200);
    expect(again.body.subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, nextBillingDate: null });
    body = await current(token);
    expect(body.plan).toBe('PRO');
    expect(body.billingHistory.map((item: { amount: number }) => item.amount)).toEqual([9.99, -9.99, 9.99]);

    server.clock.advance(1000);
    const reactivated = await server.request('POST', '/api/subscriptions/reactivate', { token });
    expect(reactivated.status).toBe(200);
    expect(reactivated.body.subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
  });

  it('renews each period with an invoice, and ends a canceled subscription at period end', async () => {
    const user = await createUser(server);
    await subscribe(user.token);
    server.clock.advance(32 * DAY);
    await server.container.billing.runRenewals();
    let token = await signInAgain(user);
    let body = await current(token);
    expect(body.plan).toBe('PRO');
    expect(body.billingHistory).toHaveLength(2);
    expect(Date.parse(body.subscription.currentPeriodEnd)).toBeGreaterThan(server.clock.now().getTime());

    // Past the first month: no refund.
    expect(
      (await server.request('POST', '/api/subscriptions/upgrade', { token, body: { planId: 'FREE' } })).body.subscription.cancelAtPeriodEnd,
    ).toBe(true);
    expect((await current(token)).billingHistory.every((item: { amount: number }) => item.amount > 0)).toBe(true);
    server.clock.advance(31 * DAY);
    await server.container.billing.runRenewals();
    token = await signInAgain(user);
    body = await current(token);
    expect(body).toMatchObject({ plan: 'FREE', storageLimit: MiB, subscription: { status: 'canceled' } });
    expect(body.history[0]).toMatchObject({ type: 'downgrade', planName: 'Free' });
    expect(body.billingHistory).toHaveLength(2);
  });

  it('keeps every file after a downgrade, refusing only new uploads with the reason', async () => {
    const { token } = await createUser(server);
    await subscribe(token);
    const big = await uploadFile(server, token, Buffer.alloc(2 * MiB, 7), { name: 'big.bin' });
    expect(big.status).toBe(201);
    const portal = await server.request('POST', '/api/subscriptions/create-portal-session', {
      token,
      body: { returnUrl: 'http://localhost:3000/subscription' },
    });
    expect(portal.status, portal.text).toBe(200);
    const ended = await postForm(`${portal.body.sessionUrl}/end`);
    expect(ended.status).toBe(303);
    expect((await fetchPage(ended.location as string)).html).toContain('Your subscription has ended');

    expect((await current(token)).plan).toBe('FREE');
    const refused = await uploadFile(server, token, 'tiny', { name: 'tiny.txt' });
    expect(refused.status).toBe(507);
    expect(refused.body.code).toBe('OVER_STORAGE_LIMIT');
    expect(refused.body.error).toContain('more than the 1 MB of the Free plan');
    expect(refused.body.error).toContain('download, share and delete');
    const download = await downloadFile(server, token, big.body.file.id);
    expect(download.status).toBe(200);
    expect(download.bytes.length).toBe(2 * MiB);
    expect((await server.request('DELETE', `/api/files/${big.body.file.id}`, { token })).status).toBe(200);
  });
});

describe('the local billing portal', () => {
  it('changes plan, cancels and reactivates from its page, and sends the user back only to this server', async () => {
    const user = await createUser(server);
    await subscribe(user.token);
    // Past the first month, so that cancelling is not a refund that ends the subscription at once.
    server.clock.advance(31 * DAY);
    await server.container.billing.runRenewals();
    const token = await signInAgain(user);
    expect(
      (await server.request('POST', '/api/subscriptions/create-portal-session', { token, body: { returnUrl: 'https://evil.example/' } }))
        .status,
    ).toBe(400);
    const portal = await server.request('POST', '/api/subscriptions/create-portal-session', { token, body: {} });
    const page = await fetchPage(portal.body.sessionUrl);
    expect(page.html).toContain('Billing portal (test)');
    expect(page.html).toContain('Switch to Business');
    expect(page.html).toContain('href="http://localhost:3000/subscription"');

    expect((await postForm(`${portal.body.sessionUrl}/change`, { planId: 'FREE' })).status).toBe(400);
    expect((await postForm(`${portal.body.sessionUrl}/change`, { planId: 'PREMIUM' })).status).toBe(303);
    expect((await current(token)).plan).toBe('PREMIUM');
    expect((await postForm(`${portal.body.sessionUrl}/cancel`)).status).toBe(303);
    expect((await current(token)).subscription.cancelAtPeriodEnd).toBe(true);
    const reactivated = await postForm(`${portal.body.sessionUrl}/reactivate`);
    expect((await fetchPage(reactivated.location as string)).html).toContain('Your subscription will renew again.');
    expect((await current(token)).subscription.cancelAtPeriodEnd).toBe(false);

    server.clock.advance(DAY + 1000);
    expect((await fetchPage(portal.body.sessionUrl)).status).toBe(404);
  });
});

describe('the local billing portal in the first month', () => {
  it('says that cancelling refunded the payment and ended the subscription', async () => {
    const { token } = await createUser(server);
    await subscribe(token);
    const portal = await server.request('POST', '/api/subscriptions/create-portal-session', { token, body: {} });
    const canceled = await postForm(`${portal.body.sessionUrl}/cancel`);
    expect(canceled.status).toBe(303);
    expect(canceled.location).toMatch(/\?done=refunded$/);
    const page = await fetchPage(canceled.location as string);
    expect(page.html).toContain('Your first payment was refunded and your subscription has ended.');
    expect(page.html).not.toContain('Switch to Business');
    expect((await current(token)).plan).toBe('FREE');
  });
});
