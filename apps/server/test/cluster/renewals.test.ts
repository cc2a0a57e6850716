import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { subscribe } from '@cloudvault/test-support/checkout';
import { type Cluster, startCluster } from './helpers/cluster.ts';
import { waitFor } from '../helpers/wait-for.ts';

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster();
});
afterAll(async () => {
  await cluster?.stop();
});

/** The nodes' database sessions that wait on a lock (not pg-boss's own, which take advisory locks). */
async function lockWaiters(db: pg.Pool): Promise<number[]> {
  const { rows } = await db.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event <> 'advisory' AND application_name <> 'cloudvault-jobs'",
  );
  return rows.map((row) => row.pid);
}

/**
 * Renewals run on pg-boss, on a schedule kept in its `pgboss.schedule` table (hourly); made
 * due every minute, the nodes' next cron passes (every 30 s) file the run. The nodes write
 * their schedules at start-up, so this waits until both have finished starting.
 */
async function makeScheduledRenewalsDueEveryMinute(cluster: Cluster): Promise<void> {
  for (const node of cluster.nodes)
    await waitFor(`${node.name} to finish starting`, async () => node.outputSinceStart().includes('CloudVault is ready at'));
  const updated = await cluster.db.query("UPDATE pgboss.schedule SET cron = '* * * * *' WHERE name = 'subscription-renewals'");
  expect(updated.rowCount, 'the renewals schedule').toBe(1);
}

/**
 * Both nodes are made to renew at the same moment, and held there: restarted together, they
 * find the renewals schedule due every minute, so both nodes' schedulers see it due at the
 * same minute. Meanwhile the test holds the invoices table locked until every node that
 * renews waits to write its invoice, then lets them go.
 */
it('bills one renewal invoice for the period when both nodes renew at the same moment', async () => {
  const user = await createUser(cluster);
  await subscribe(cluster, user.token);
  const due = new Date(Date.now() - 60_000).toISOString();
  await cluster.db.query('UPDATE subscriptions SET current_period_end = $1 WHERE user_id = $2', [due, user.user.id]);

  await Promise.all(cluster.nodes.map((node) => node.stop()));
  const gate = await cluster.db.connect();
  let gateOpen = false;
  const openGate = async () => {
    if (gateOpen) return;
    gateOpen = true;
    await gate.query('COMMIT');
    gate.release();
  };
  try {
    await gate.query('BEGIN');
    await gate.query('LOCK TABLE invoices IN ACCESS EXCLUSIVE MODE');
    await Promise.all(cluster.nodes.map((node) => cluster.startNode(node)));
    await makeScheduledRenewalsDueEveryMinute(cluster);
    await waitFor('a node to start renewing', async () => (await lockWaiters(cluster.db)).length > 0, 150_000);
    // A job runner that lets one node only run the renewal queues one writer, never two.
    const bothWaiting = await waitFor(
      'both nodes to wait on the invoices',
      async () => (await lockWaiters(cluster.db)).length >= 2,
      30_000,
    ).catch(() => false);
    const waiters = await lockWaiters(cluster.db);
    console.log(`Renewal writers held at the gate: ${waiters.length}${bothWaiting ? '' : ' (one node renewed)'}`);
    await openGate();

    // Settled once every held writer has finished its transaction.
    await waitFor('the renewal transactions to end', async () => {
      const { rows } = await cluster.db.query<{ busy: number }>(
        "SELECT count(*)::int AS busy FROM pg_stat_activity WHERE pid = ANY($1) AND state <> 'idle'",
        [waiters],
      );
      return rows[0]?.busy === 0;
    });
  } finally {
    await openGate();
  }

  const { rows: invoices } = await cluster.db.query('SELECT provider_invoice_id FROM invoices WHERE user_id = $1', [user.user.id]);
  expect(invoices, 'the first payment and one renewal').toHaveLength(2);
  const { rows: subscriptions } = await cluster.db.query('SELECT current_period_start FROM subscriptions WHERE user_id = $1', [
    user.user.id,
  ]);
  expect(subscriptions, 'one period renewed, starting when the last one ended').toEqual([{ current_period_start: due }]);
  const current = await cluster.request('GET', '/api/subscriptions/current', { token: user.token });
  expect(current.body.billingHistory).toHaveLength(2);
  expect(Date.parse(current.body.subscription.currentPeriodEnd)).toBeGreaterThan(Date.now());
});
