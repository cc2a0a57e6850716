import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createInProcessJobRunner } from '../src/adapters/jobs/in-process-job-runner.ts';
import { BACKGROUND_JOBS } from '../src/background-jobs.ts';
import { systemClock } from '../src/lib/clock.ts';
import { subscribe } from '@cloudvault/test-support/checkout';
import { createUser } from '@cloudvault/test-support/accounts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { uploadFile } from '@cloudvault/test-support/drive';
import { assertStorageConsistent } from './helpers/storage-totals.ts';

const DAY = 24 * 60 * 60 * 1000;
const MINUTE = 60 * 1000;

/** A log that keeps what it is told, for the assertions. */
function recordingLog() {
  const lines: Array<{ level: 'error' | 'warn'; message: string; details: object }> = [];
  return {
    lines,
    error: (details: object, message: string) => lines.push({ level: 'error', message, details }),
    warn: (details: object, message: string) => lines.push({ level: 'warn', message, details }),
  };
}

/** A promise and the function that settles it: a handler that runs until the test lets it go. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('the in-process job runner (SQLite)', () => {
  it('runs a periodic job at each due time, one turn at a time, and stop waits for the running turn', async () => {
    const runner = createInProcessJobRunner({ clock: systemClock, log: recordingLog() });
    const release = gate();
    const started: number[] = [];
    let finished = 0;
    // Every second: the in-process runner reads the optional seconds field.
    runner.addPeriodic({
      name: 'probe',
      cron: '* * * * * *',
      run: async () => {
        started.push(Date.now());
        if (started.length === 2) await release.opened;
        finished += 1;
      },
    });
    await runner.start();
    await vi.waitFor(() => expect(started).toHaveLength(2), { timeout: 10_000, interval: 20 });
    // Two due times, a second apart at least: the second turn started in a later second than the first.
    expect(Math.floor((started[1] as number) / 1000)).toBeGreaterThan(Math.floor((started[0] as number) / 1000));
    expect((await runner.stats()).find((job) => job.name === 'probe')).toMatchObject({ kind: 'periodic', active: 1, failed: 0 });

    let stopped = false;
    const stopping = runner.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    release.open();
    await stopping;
    expect(finished).toBe(2);
    expect((await runner.stats())[0]).toMatchObject({ active: 0 });
    await expect(runner.enqueue('probe', {})).rejects.toThrow(/periodic/);
  });

  it('runs queued jobs with their data, keeps one waiting per singleton key, counts failures and drops what waits at stop', async () => {
    const log = recordingLog();
    const runner = createInProcessJobRunner({ clock: systemClock, log });
    const seen: Array<{ n: number }> = [];
    runner.addQueued<{ n: number }>({
      name: 'work',
      run: async (data) => {
        seen.push(data);
        if (data.n === 3) throw new Error('three fails');
      },
    });
    await runner.enqueue('work', { n: 1 }, { singletonKey: 'same' });
    await runner.enqueue('work', { n: 2 }, { singletonKey: 'same' });
    await runner.enqueue('work', { n: 3 });
    await runner.enqueue('work', { n: 4 }, { startAfter: new Date(Date.now() + DAY) });
    // Before start nothing runs: three wait, the second 'same' was dropped.
    expect(await runner.stats()).toEqual([{ name: 'work', kind: 'queued', queued: 3, active: 0, failed: 0 }]);

    await runner.start();
    expect(() => runner.addQueued({ name: 'later', run: async () => {} })).toThrow(/after the runner started/);
    await vi.waitFor(async () => expect((await runner.stats())[0]).toMatchObject({ queued: 1, active: 0, failed: 1 }), {
      timeout: 5_000,
      interval: 10,
    });
    expect(seen.map((data) => data.n).sort()).toEqual([1, 3]);
    expect(log.lines).toContainEqual(
      expect.objectContaining({ level: 'error', message: 'background job failed', details: expect.objectContaining({ job: 'work' }) }),
    );

    await runner.stop();
    expect(log.lines).toContainEqual({ level: 'warn', message: 'queued jobs dropped at shutdown', details: { jobs: 1 } });
    expect((await runner.stats())[0]).toMatchObject({ queued: 0 });
    await expect(runner.enqueue('work', { n: 5 })).rejects.toThrow(/stopped/);
  });

  it('refuses names pg-boss could not take and names registered twice', () => {
    const runner = createInProcessJobRunner({ clock: systemClock, log: recordingLog() });
    expect(() => runner.addPeriodic({ name: 'a b', cron: '* * * * *', run: async () => {} })).toThrow(/letters, digits/);
    runner.addPeriodic({ name: 'a', cron: '* * * * *', run: async () => {} });
    expect(() => runner.addQueued({ name: 'a', run: async () => {} })).toThrow(/twice/);
  });
});

describe('the background jobs', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const runTwiceAtOnce = (name: string) => Promise.all([server.container.jobs.runNow(name), server.container.jobs.runNow(name)]);

  it('run on pg-boss on PostgreSQL and in this process on SQLite', () => {
    expect(server.container.jobs.driver).toBe(process.env.TEST_DB === 'postgres' ? 'pg-boss' : 'in-process');
  });

  it('each have the effect of one run when two run at once', async () => {
    const db = server.container.database.db;
    // Trash past retention, a subscription past its period, a message due, today's figures.
    const owner = await createUser(server);
    const settings = (await server.request('GET', '/api/user/settings', { token: owner.token })).body.settings;
    await server.request('PUT', '/api/user/settings', {
      token: owner.token,
      body: { ...settings, storage: { ...settings.storage, autoDelete: true, deleteAfterDays: 7 } },
    });
    const kept = (await uploadFile(server, owner.token, randomBytes(3000), { name: 'kept.bin' })).body.file;
    const trashed = (await uploadFile(server, owner.token, randomBytes(5000), { name: 'old.bin' })).body.file;
    expect((await server.request('DELETE', `/api/files/${trashed.id}`, { token: owner.token })).status).toBe(200);
    await subscribe(server, owner.token);
    server.clock.advance(32 * DAY);
    const due = server.clock.now().toISOString();
    await db
      .insertInto('mail_queue')
      .values({
        id: 'twice-at-once',
        recipient: 'twice@example.com',
        subject: 'Once only',
        text_body: 'hello',
        html_body: '<p>hello</p>',
        attempts: 0,
        next_attempt_at: due,
        sent_at: null,
        last_error: null,
        created_at: due,
      })
      .execute();

    // Retention first, so the day's figures see the purge.
    for (const name of Object.values(BACKGROUND_JOBS)) await runTwiceAtOnce(name);

    const files = await db.selectFrom('files').select('id').where('user_id', '=', owner.user.id).execute();
    expect(files.map((file) => file.id)).toEqual([kept.id]);
    expect(await assertStorageConsistent(server, owner.user.id)).toEqual({ used: 3000, sum: 3000 });
    const invoices = await db
      .selectFrom('invoices')
      .select(['provider_invoice_id', 'amount_cents'])
      .where('user_id', '=', owner.user.id)
      .execute();
    expect(invoices).toHaveLength(2);
    const outbox = path.join(server.dataDir, 'outbox');
    const mails = await Promise.all(
      (await readdir(outbox)).filter((name) => name.endsWith('.eml')).map((name) => readFile(path.join(outbox, name), 'utf8')),
    );
    expect(mails.filter((mail) => /^To: twice@example\.com$/m.test(mail))).toHaveLength(1);
    const sent = await db
      .selectFrom('mail_queue')
      .select(['attempts', 'sent_at'])
      .where('id', '=', 'twice-at-once')
      .executeTakeFirstOrThrow();
    expect(sent.attempts).toBe(1);
    expect(sent.sent_at).not.toBeNull();
    const figures = await db.selectFrom('storage_daily').select(['day', 'bytes']).where('user_id', '=', owner.user.id).execute();
    expect(figures).toEqual([{ day: due.slice(0, 10), bytes: 3000 }]);

    // Later in the same period, another run bills nothing more.
    server.clock.advance(DAY);
    await runTwiceAtOnce(BACKGROUND_JOBS.renewals);
    expect(await db.selectFrom('invoices').select('provider_invoice_id').where('user_id', '=', owner.user.id).execute()).toHaveLength(2);
  });

  it('bill a period once when a renewal run outlives its claim and another run renews the same period', async () => {
    const { localPayments, billing, database } = server.container;
    if (!localPayments) throw new Error('the test server runs the local checkout');
    const owner = await createUser(server);
    await subscribe(server, owner.token);
    server.clock.advance(31 * DAY);
    // A slow run: it claimed and priced the renewal, and has not applied it yet…
    const slow = await localPayments.renewDue();
    const renewal = slow.find((event) => event.type === 'invoice.paid' && event.subscription?.userId === owner.user.id);
    if (renewal?.type !== 'invoice.paid') throw new Error('the slow run renewed nothing');
    // …while the claim holds, another run takes nothing…
    expect(await localPayments.renewDue()).toEqual([]);
    // …once it has lapsed, another run renews the same period, and then the slow one finishes.
    server.clock.advance(11 * MINUTE);
    await billing.runRenewals();
    await billing.applyEvents(slow);
    const invoices = await database.db.selectFrom('invoices').select('provider_invoice_id').where('user_id', '=', owner.user.id).execute();
    expect(invoices).toHaveLength(2);
    expect(invoices.map((invoice) => invoice.provider_invoice_id)).toContain(renewal.invoice.providerInvoiceId);
  });
});
