import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { postForm, subscribe } from '@cloudvault/test-support/checkout';
import { request } from '@cloudvault/test-support/running-server';
import { waitFor } from '../helpers/wait-for.ts';
import { type Cluster, requestsLogged, startCluster } from './helpers/cluster.ts';

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster();
});
afterAll(async () => {
  await cluster?.stop();
});

/** How many answers to ask the balancer for: enough for each node to answer many times. */
const ROUNDS = 30;

/**
 * After a refunded first subscription, a second one once answered PRO on one node and FREE
 * on the next request. Every answer about the plan comes from the database (no
 * process keeps a plan, a subscription, a user row or the catalogue apart from its file), so
 * both nodes must give the same answer, every time, through the balancer and directly.
 */
it('answers the same paid plan on both nodes, every time, after a refunded subscription and a second one', async () => {
  const user = await createUser(cluster);
  await subscribe(cluster, user.token, 'PRO');
  expect((await cluster.request('GET', '/api/subscriptions/current', { token: user.token })).body.plan).toBe('PRO');

  // A cancellation in the first month is refunded and ends the subscription at once.
  const refunded = await cluster.request('POST', '/api/subscriptions/cancel', { token: user.token });
  expect(refunded.status, refunded.text).toBe(200);
  expect(refunded.body.subscription.status).toBe('canceled');
  for (let round = 0; round < 4; round += 1) {
    expect((await cluster.request('GET', '/api/subscriptions/current', { token: user.token })).body.plan).toBe('FREE');
  }

  await subscribe(cluster, user.token, 'PRO');

  const before = cluster.nodes.map((node) => requestsLogged(node, 'GET', '/api/subscriptions/current'));
  const answers: Array<{ plan: string; subscription: string; status: string; invoices: number }> = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const current = await cluster.request('GET', '/api/subscriptions/current', { token: user.token });
    expect(current.status, current.text).toBe(200);
    answers.push({
      plan: current.body.plan,
      subscription: current.body.subscription?.planId,
      status: current.body.subscription?.status,
      invoices: current.body.billingHistory.length,
    });
  }
  const served = cluster.nodes.map((node, index) => requestsLogged(node, 'GET', '/api/subscriptions/current') - (before[index] ?? 0));
  expect(
    served.every((count) => count >= ROUNDS / 2 - 1),
    `answers per node: ${served.join(', ')}`,
  ).toBe(true);
  // Two payments and the refund of the first: the same on every answer.
  expect(answers).toEqual(Array(ROUNDS).fill({ plan: 'PRO', subscription: 'PRO', status: 'active', invoices: 3 }));

  // The plan's limits, asked of each node directly and through the balancer, agree.
  const configs = await Promise.all([
    ...cluster.nodes.map((node) => request({ url: node.url }, 'GET', '/api/files/upload-config', { token: user.token })),
    cluster.request('GET', '/api/files/upload-config', { token: user.token }),
  ]);
  const pro = configs[0]?.body;
  expect(pro).toMatchObject({ userPlan: 'PRO' });
  for (const config of configs) expect(config.body).toEqual(pro);
  for (const node of cluster.nodes) {
    const own = await request<{ plan: string }>({ url: node.url }, 'GET', '/api/subscriptions/current', { token: user.token });
    expect(own.body.plan, node.name).toBe('PRO');
  }
});

/** The nodes' database sessions that wait on a row or table lock (pg-boss's advisory locks left out). */
async function lockWaiters(): Promise<number> {
  const { rows } = await cluster.db.query<{ count: number }>(
    "SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event <> 'advisory'",
  );
  return rows[0]?.count ?? 0;
}

/**
 * The plan follows the newest subscription, decided by whichever transaction changes a
 * subscription of the account. Two nodes can change two of them at once (a late report
 * about the old one on one node, the new one on the other): each must decide on what the
 * other committed, never on what it read before the other committed. Here the test is the
 * other node: its transaction records a second subscription and moves the plan, and holds
 * its commit while a node ends the first subscription through the portal.
 */
it('keeps the plan on the newest subscription when two nodes change the subscriptions of one account at once', async () => {
  const user = await createUser(cluster);
  await subscribe(cluster, user.token, 'PRO');
  const portal = await cluster.request('POST', '/api/subscriptions/create-portal-session', { token: user.token, body: {} });
  expect(portal.status, portal.text).toBe(200);

  const other = await cluster.db.connect();
  let open = true;
  const commit = async () => {
    if (!open) return;
    open = false;
    await other.query('COMMIT');
    other.release();
  };
  try {
    await other.query('BEGIN');
    const now = new Date().toISOString();
    const periodEnd = new Date(Date.now() + 30 * 24 * 60 * 60 * 1000).toISOString();
    const { rows } = await other.query<{ customer_id: string }>('SELECT customer_id FROM subscriptions WHERE user_id = $1', [user.user.id]);
    await other.query(
      `INSERT INTO subscriptions (provider_subscription_id, user_id, provider, customer_id, plan_id, status, cancel_at_period_end, current_period_start, current_period_end, created_at, updated_at)
       VALUES ($1, $2, 'local', $3, 'PREMIUM', 'active', 0, $4, $5, $4, $4)`,
      [`sub_local_second_${user.user.id}`, user.user.id, rows[0]?.customer_id, now, periodEnd],
    );
    await other.query("UPDATE users SET plan_id = 'PREMIUM', updated_at = $2 WHERE id = $1", [user.user.id, now]);

    const ended = postForm(cluster, `${portal.body.sessionUrl}/end`);
    await waitFor('the node ending the first subscription to wait for the other transaction', async () => (await lockWaiters()) > 0);
    await commit();
    expect((await ended).status).toBe(303);
  } finally {
    await commit();
  }

  for (const node of cluster.nodes) {
    const current = await request<{ plan: string; subscription: { planId: string; status: string } }>(
      { url: node.url },
      'GET',
      '/api/subscriptions/current',
      {
        token: user.token,
      },
    );
    expect({ node: node.name, plan: current.body.plan, subscription: current.body.subscription }).toMatchObject({
      node: node.name,
      plan: 'PREMIUM',
      subscription: { planId: 'PREMIUM', status: 'active' },
    });
  }
});
