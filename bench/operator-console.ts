/**
 * `npm run bench:operator-console`: the operator console with 100,000 accounts on PostgreSQL
 * (docs/decisions/0029-operator-console.md). Seeds users, paid and complimentary
 * subscriptions, invoices and 30 days of storage figures with set-based INSERT … SELECT,
 * then times each console query through HTTP on 127.0.0.1 (the server's time plus a
 * loopback round trip): median and p95 of 20 requests after 3 warm-ups, target 200 ms.
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) names the server;
 * the run creates its own database there and drops it. BENCH_USERS changes the count.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { createContainer } from '../apps/server/src/container.ts';
import { createPostgresDatabase } from '../apps/server/test/helpers/test-database.ts';

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const DAYS = 30;
const ROUNDS = 20;
const TARGET_MS = 200;
const OPERATOR = 'operator@bench.example';
const log = (message: string) => process.stderr.write(`[bench:operator-console] ${message}\n`);

const database = await createPostgresDatabase(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-bench-console-'));
const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: database.url, SINGLE_NODE: '1', LOG_LEVEL: 'warn', ADMIN_EMAILS: OPERATOR });
const container = await createContainer(config);
const app = await buildApp(container);

try {
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const db = container.database.db;
  const started = performance.now();
  // Names repeat (ties for search), storage takes 5,000 values (ties for the sort), every
  // tenth user pays (PRO or PREMIUM), every hundredth is suspended.
  await sql`
    INSERT INTO users (id, email, first_name, last_name, password_hash, plan_id, storage_used, two_factor_enabled,
                       email_verified_at, created_at, updated_at, last_sign_in_at, suspended_at)
    SELECT 'u' || lpad(g::text, 7, '0'),
           'person' || g || '@mail' || (g % 50) || '.example',
           (ARRAY['Ada','Grace','Alan','Edsger','Barbara','Donald','Frances','John','Margaret','Ken'])[1 + g % 10],
           (ARRAY['Lovelace','Hopper','Turing','Dijkstra','Liskov','Knuth','Allen','Backus','Hamilton','Thompson'])[1 + (g / 10) % 10] || (g % 997),
           'x', CASE WHEN g % 10 = 0 THEN 'PRO' WHEN g % 10 = 5 THEN 'PREMIUM' ELSE 'FREE' END,
           (g % 5000)::bigint * 1048576, 0, now()::text,
           to_char(timestamp '2026-01-01' + (g || ' seconds')::interval * 300, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           to_char(timestamp '2026-01-01' + (g || ' seconds')::interval * 300, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           to_char(timestamp '2026-11-01' + ((g * 7919) % 1000000 || ' seconds')::interval, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           CASE WHEN g % 100 = 1 THEN '2026-11-20T00:00:00.000Z' END
    FROM generate_series(1, ${USERS}) AS g`.execute(db);
  await sql`
    INSERT INTO subscriptions (provider_subscription_id, user_id, provider, customer_id, plan_id, status, cancel_at_period_end,
                               current_period_start, current_period_end, first_paid_at, created_at, updated_at)
    SELECT 'sub_' || id, id, CASE WHEN right(id, 2) = '50' THEN 'complimentary' ELSE 'local' END, 'cus_' || id, plan_id,
           CASE WHEN right(id, 3) = '990' THEN 'past_due' ELSE 'active' END, 0,
           '2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z', created_at, created_at, created_at
    FROM users WHERE plan_id <> 'FREE'`.execute(db);
  await sql`
    INSERT INTO invoices (provider_invoice_id, user_id, provider_subscription_id, amount_cents, currency, status, created_at)
    SELECT 'in_' || provider_subscription_id || '_' || m, user_id, provider_subscription_id,
           CASE WHEN plan_id = 'PRO' THEN 999 ELSE 1999 END, 'usd', 'paid',
           '2026-' || lpad(m::text, 2, '0') || '-15T00:00:00.000Z'
    FROM subscriptions, generate_series(1, 11) AS m WHERE provider = 'local'`.execute(db);
  await sql`
    INSERT INTO storage_daily (user_id, day, bytes)
    SELECT id, to_char(date '2026-11-24' - d, 'YYYY-MM-DD'), storage_used FROM users, generate_series(0, ${DAYS - 1}) AS d`.execute(db);
  // What the daily figures job writes beside them (analytics.repository.ts).
  await sql`INSERT INTO storage_daily_totals (day, bytes) SELECT day, sum(bytes) FROM storage_daily GROUP BY day`.execute(db);
  await sql`ANALYZE`.execute(db);
  log(
    `seeded ${USERS} users, their subscriptions, invoices and ${DAYS} days of storage figures in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const registered = await fetch(`${url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ firstName: 'Olga', lastName: 'Operator', email: OPERATOR, password: 'bench password' }),
  });
  const { token, user } = (await registered.json()) as { token: string; user: { id: string } };
  await db.updateTable('users').set({ email_verified_at: new Date().toISOString() }).where('id', '=', user.id).execute();

  const get = async (pathAndQuery: string) => {
    const response = await fetch(`${url}${pathAndQuery}`, { headers: { authorization: `Bearer ${token}` } });
    if (response.status !== 200) throw new Error(`${pathAndQuery} answered ${response.status}: ${await response.text()}`);
    return response.json() as Promise<{ nextCursor?: string | null; users?: unknown[] }>;
  };
  /** A cursor 1,000 pages of 50 into a sort: the deep page. */
  const deepCursor = async (sort: string) => {
    const rows = await sql<{ id: string; value: string | number }>`
      SELECT id, ${sql.ref(sort === 'storage' ? 'storage_used' : 'created_at')} AS value FROM users
      ORDER BY ${sql.ref(sort === 'storage' ? 'storage_used' : 'created_at')} DESC, id DESC OFFSET 50000 LIMIT 1`.execute(db);
    const row = rows.rows[0];
    if (!row) throw new Error('fewer users than the deep page needs');
    return Buffer.from(JSON.stringify({ sort, value: sort === 'storage' ? Number(row.value) : row.value, id: row.id })).toString(
      'base64url',
    );
  };

  const queries: Array<[string, string]> = [
    ['first page, newest first', '/api/admin/users'],
    ['prefix of an address', '/api/admin/users?search=person4242'],
    ['contains (name part)', '/api/admin/users?search=ace77'],
    ['contains, no match', '/api/admin/users?search=zzzqqq'],
    ['filter plan=PRO, status=active', '/api/admin/users?plan=PRO&status=active'],
    ['filter suspended, sort storage', '/api/admin/users?status=suspended&sort=storage'],
    ['sort by storage', '/api/admin/users?sort=storage'],
    ['sort by last sign-in', '/api/admin/users?sort=lastSignIn'],
    ['search + plan + sort storage', '/api/admin/users?search=hopper&plan=PREMIUM&sort=storage'],
    ['deep cursor (page 1,001), newest first', `/api/admin/users?cursor=${await deepCursor('created')}`],
    ['deep cursor (page 1,001), by storage', `/api/admin/users?sort=storage&cursor=${await deepCursor('storage')}`],
    ['user detail', `/api/admin/users/u0050000`],
    ['overview (stats)', '/api/admin/stats'],
    ['audit log', '/api/admin/audit'],
  ];
  const results = [];
  for (const [name, query] of queries) {
    for (let warm = 0; warm < 3; warm++) await get(query);
    const times: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const begin = performance.now();
      await get(query);
      times.push(performance.now() - begin);
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(ROUNDS / 2)] as number;
    const p95 = times[Math.ceil(ROUNDS * 0.95) - 1] as number;
    results.push({ name, medianMs: Math.round(median * 10) / 10, p95Ms: Math.round(p95 * 10) / 10, withinTarget: p95 < TARGET_MS });
  }
  const width = Math.max(...results.map((result) => result.name.length));
  // Other work on this machine (tests, builds) skews every figure: the load says how much.
  const [load] = os.loadavg() as [number];
  process.stdout.write(
    `Operator console, ${USERS} users on PostgreSQL (target ${TARGET_MS} ms; load average ${load.toFixed(2)} on ${os.cpus().length} cores):\n`,
  );
  for (const result of results) {
    process.stdout.write(
      `  ${result.name.padEnd(width)}  median ${String(result.medianMs).padStart(6)} ms  p95 ${String(result.p95Ms).padStart(6)} ms  ${result.withinTarget ? 'ok' : 'OVER TARGET'}\n`,
    );
  }
} finally {
  await app.close();
  await container.close();
  await database.drop();
  await rm(dataDir, { recursive: true, force: true });
}
