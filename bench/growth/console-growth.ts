import pg from 'pg';
import { request } from '../lib/http-client.ts';
import type { GrowthContext } from './context.ts';
import { type GrowthPoint, type GrowthSeries, latencyPoint, timeRequests } from './series.ts';

const TARGET_MS = 200;
const QUERIES = [
  { name: 'first page', query: '' },
  { name: 'address prefix', query: 'search=person4242' },
  { name: 'contains', query: 'search=ace77' },
  { name: 'no match', query: 'search=zzzqqq' },
];

/** Users `from`..`to` as bench/operator-console.ts seeds them (names repeat, for ties). */
async function seedUsers(databaseUrl: string, from: number, to: number): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO users (id, email, first_name, last_name, password_hash, plan_id, storage_used, two_factor_enabled,
                          email_verified_at, created_at, updated_at, last_sign_in_at)
       SELECT 'u' || lpad(g::text, 7, '0'), 'person' || g || '@mail' || (g % 50) || '.example',
              (ARRAY['Ada','Grace','Alan','Edsger','Barbara','Donald','Frances','John','Margaret','Ken'])[1 + g % 10],
              (ARRAY['Lovelace','Hopper','Turing','Dijkstra','Liskov','Knuth','Allen','Backus','Hamilton','Thompson'])[1 + (g / 10) % 10] || (g % 997),
              'x', 'FREE', (g % 5000)::bigint * 1048576, 0, '2026-01-01T00:00:00.000Z',
              to_char(timestamp '2026-01-01' + (g || ' seconds')::interval * 300, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
              to_char(timestamp '2026-01-01' + (g || ' seconds')::interval * 300, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
              to_char(timestamp '2026-11-01' + ((g * 7919) % 1000000 || ' seconds')::interval, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
       FROM generate_series($1::int, $2::int) AS g`,
      [from, to],
    );
    await client.query('ANALYZE users');
  } finally {
    await client.end();
  }
}

/** The operator console's user list and search (GET /api/admin/users) as the accounts grow, on PostgreSQL. */
export async function consoleGrowth(ctx: GrowthContext): Promise<GrowthSeries | null> {
  const postgres = ctx.postgres;
  if (!postgres) return null;
  const lines = QUERIES.map((query) => ({ name: query.name, points: [] as GrowthPoint[] }));
  let seeded = 0;
  for (const size of ctx.config.consoleUsers) {
    ctx.log(`operator console: ${size.toLocaleString('en')} users`);
    await seedUsers(postgres.databaseUrl, seeded + 1, size);
    seeded = size;
    for (const [index, { query }] of QUERIES.entries()) {
      const get = () =>
        request(`${postgres.server.url}/api/admin/users?${query}`, {
          headers: { authorization: `Bearer ${postgres.operatorToken}` },
          keepText: true,
          idleTimeoutMs: ctx.config.idleTimeoutMs,
        });
      const latencies = await timeRequests(ctx.config, get, (exchange) => {
        if (exchange.status !== 200)
          throw new Error(`GET /api/admin/users?${query} answered ${exchange.status}: ${exchange.text.slice(0, 200)}`);
      });
      lines[index]!.points.push(latencyPoint(size, latencies));
    }
  }
  return {
    id: 'console-users',
    title: 'Operator console user list and search, PostgreSQL',
    sizeLabel: 'users',
    lines,
    plot: 'p99Ms',
    targetMs: TARGET_MS,
    notes: [
      'Users seeded as bench/operator-console.ts does (without subscriptions and invoices; `npm run bench:operator-console` times every console query at 100,000).',
    ],
  };
}
