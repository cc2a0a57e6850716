import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { TestClock } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobRunner } from '../src/adapters/jobs/job-runner.ts';
import { createPgBossJobRunner, JOB_SCHEMA } from '../src/adapters/jobs/pg-boss-job-runner.ts';
import { BACKGROUND_JOBS } from '../src/background-jobs.ts';
import { loadConfig } from '../src/config.ts';
import { type Container, createContainer } from '../src/container.ts';
import { subscribe } from '@cloudvault/test-support/checkout';
import { createUser } from '@cloudvault/test-support/accounts';
import { createTestDatabase } from './helpers/test-database.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

/*
 * Several nodes on one PostgreSQL database. Left out of collection unless TEST_DB=postgres
 * (vitest.config.ts): on SQLite there is one node.
 */

const DAY = 24 * 60 * 60 * 1000;
const silentLog = { error: () => {}, warn: () => {} };

describe('two nodes renewing at the same moment', () => {
  let server: TestServer;
  let secondNode: Container;
  let secondDataDir: string;
  beforeAll(async () => {
    server = await startTestServer();
    secondDataDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-node-b-'));
    secondNode = await createContainer(
      loadConfig({ DATA_DIR: secondDataDir, DATABASE_URL: server.container.config.databaseUrl, LOG_LEVEL: 'silent', SINGLE_NODE: '1' }),
      { clock: server.clock },
    );
  });
  afterAll(async () => {
    await secondNode.close();
    await server.close();
    await rm(secondDataDir, { recursive: true, force: true });
  });

  it('bill each period once, and a later run in the same period bills nothing', async () => {
    const owners = await Promise.all(Array.from({ length: 6 }, () => createUser(server)));
    for (const owner of owners) await subscribe(server, owner.token);
    const invoiceCounts = async () => {
      const rows = await server.container.database.db.selectFrom('invoices').select(['user_id', 'provider_invoice_id']).execute();
      return owners.map((owner) => rows.filter((row) => row.user_id === owner.user.id).length);
    };
    const bothNodesRenew = () =>
      Promise.all([server.container.jobs.runNow(BACKGROUND_JOBS.renewals), secondNode.jobs.runNow(BACKGROUND_JOBS.renewals)]);

    server.clock.advance(32 * DAY);
    await bothNodesRenew();
    expect(await invoiceCounts()).toEqual(owners.map(() => 2));
    server.clock.advance(DAY);
    await bothNodesRenew();
    expect(await invoiceCounts()).toEqual(owners.map(() => 2));
    // The next period: one more each.
    server.clock.advance(30 * DAY);
    await bothNodesRenew();
    expect(await invoiceCounts()).toEqual(owners.map(() => 3));
  });
});

describe('pg-boss on two nodes', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: pg.Client;
  const runners: JobRunner[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  });
  afterAll(async () => {
    for (const runner of runners) await runner.stop();
    await admin.end();
    await database.drop();
  });

  /** Jobs pg-boss filed in a queue, whatever their state. */
  const filedJobs = async (name: string) =>
    Number((await admin.query(`SELECT count(*) AS count FROM ${JOB_SCHEMA}.job WHERE name = $1`, [name])).rows[0].count);

  // Each step of pg-boss's clock waits for both nodes' queries: some seconds of real time.
  it(
    'runs a periodic job once per due time, and queued jobs once per enqueue (one waiting per singleton key)',
    { timeout: 120_000 },
    async () => {
      // pg-boss's own test clock: both nodes and the database read the same time, moved by the test.
      const clock = new TestClock('2026-01-05T10:58:00.000Z');
      const runs: Array<{ node: string; at: string }> = [];
      const done: Array<{ node: string; n: number }> = [];
      for (const node of ['a', 'b']) {
        const runner = createPgBossJobRunner({ connectionString: database.url as string, log: silentLog, clock });
        runner.addPeriodic({
          name: 'hourly-probe',
          cron: '0 * * * *',
          run: async () => {
            runs.push({ node, at: new Date(clock.now()).toISOString() });
          },
        });
        runner.addQueued<{ n: number }>({
          name: 'queued-probe',
          run: async (data) => {
            done.push({ node, n: data.n });
          },
        });
        runners.push(runner);
      }
      for (const runner of runners) await runner.start();

      /** Moves time in steps, each firing the nodes' timers (cron passes, polls) and waiting for their queries. */
      const tickUntil = async (until: string, stop: () => boolean = () => false) => {
        while (clock.now() < Date.parse(until) && !stop()) await clock.tick(5_000);
      };

      await tickUntil('2026-01-05T11:03:00.000Z', () => runs.length > 0);
      expect(runs).toHaveLength(1);
      expect(runs[0]?.at.slice(0, 16)).toBe('2026-01-05T11:00');
      // Both nodes keep passing over the schedule past the due time's window; it is not run again.
      await tickUntil('2026-01-05T11:03:00.000Z');
      expect(runs).toHaveLength(1);
      expect(await filedJobs('hourly-probe')).toBe(1);

      await clock.setTime('2026-01-05T11:59:00.000Z');
      await tickUntil('2026-01-05T12:03:00.000Z', () => runs.length > 1);
      await tickUntil('2026-01-05T12:03:00.000Z');
      expect(runs.map((run) => run.at.slice(0, 16))).toEqual(['2026-01-05T11:00', '2026-01-05T12:00']);
      expect(await filedJobs('hourly-probe')).toBe(2);

      const [a, b] = runners as [JobRunner, JobRunner];
      await a.enqueue('queued-probe', { n: 1 }, { singletonKey: 'same' });
      await b.enqueue('queued-probe', { n: 2 }, { singletonKey: 'same' });
      await b.enqueue('queued-probe', { n: 3 });
      await a.enqueue('queued-probe', { n: 4 }, { startAfter: new Date(Date.parse('2026-01-05T13:00:00.000Z')) });
      await tickUntil('2026-01-05T12:06:00.000Z', () => done.length >= 2);
      await tickUntil('2026-01-05T12:07:00.000Z');
      expect(done.map((run) => run.n).sort()).toEqual([1, 3]);
      await clock.setTime('2026-01-05T12:59:30.000Z');
      await tickUntil('2026-01-05T13:02:00.000Z', () => done.length >= 3);
      expect(done.map((run) => run.n).sort()).toEqual([1, 3, 4]);
      expect((await a.stats()).map(({ name, kind }) => ({ name, kind }))).toEqual([
        { name: 'hourly-probe', kind: 'periodic' },
        { name: 'queued-probe', kind: 'queued' },
      ]);
    },
  );
});
