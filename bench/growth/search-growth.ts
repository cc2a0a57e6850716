import { type CloudVaultClient, register } from '../lib/cloudvault-api.ts';
import { closeConnections, request } from '../lib/http-client.ts';
import type { GrowthContext } from './context.ts';
import { SEARCH_TERMS, seedPostgres, seedSqlite } from './search-rows.ts';
import { type GrowthPoint, type GrowthSeries, latencyPoint, timeRequests } from './series.ts';

/** What GET /api/files?search= answers at most (files.service.ts SEARCH_LIMIT). */
const SEARCH_LIMIT = 500;
const TARGET_MS = 50;

/**
 * GET /api/files?search= for a few terms while one user's files grow to each size (rows
 * added to reach the next size, not re-made), on one database.
 */
async function searchSeries(
  ctx: GrowthContext,
  database: string,
  client: CloudVaultClient,
  seed: (from: number, to: number) => Promise<void>,
): Promise<GrowthSeries> {
  const lines = SEARCH_TERMS.map((term) => ({ name: term.name, points: [] as GrowthPoint[] }));
  let seeded = 0;
  for (const size of ctx.config.searchSizes) {
    ctx.log(`search on ${database}: seeding files ${seeded + 1}..${size}`);
    const started = performance.now();
    await seed(seeded + 1, size);
    const seedSeconds = (performance.now() - started) / 1000;
    seeded = size;
    // The server may have closed the idle keep-alive sockets while the rows went in.
    closeConnections();
    for (const [index, term] of SEARCH_TERMS.entries()) {
      const expected = Math.min(term.hits(size), SEARCH_LIMIT);
      const get = () =>
        request(`${client.url}/api/files?search=${encodeURIComponent(term.term)}`, {
          headers: { authorization: `Bearer ${client.token}` },
          keepText: true,
          idleTimeoutMs: ctx.config.idleTimeoutMs,
        });
      const latencies = await timeRequests(ctx.config, get, (exchange) => {
        const found = exchange.status === 200 ? (JSON.parse(exchange.text).files as unknown[]).length : -1;
        if (found !== expected)
          throw new Error(`search for ${term.term} answered ${exchange.status} with ${found} files, expected ${expected}`);
      });
      lines[index]!.points.push(latencyPoint(size, latencies, { note: `${expected} hits; seeding took ${seedSeconds.toFixed(1)} s` }));
    }
  }
  return {
    id: `search-${database.toLowerCase()}`,
    title: `Name search (GET /api/files?search=), ${database}`,
    sizeLabel: 'files of the user',
    lines,
    plot: 'p99Ms',
    targetMs: TARGET_MS,
    notes: [
      `Terms: ${SEARCH_TERMS.map((term) => `"${term.term}" (${term.name})`).join(', ')}; answers hold at most ${SEARCH_LIMIT} files.`,
      "Rows inserted straight into the database (no blobs behind them), all in one user's root folder.",
    ],
  };
}

export async function searchGrowthSqlite(ctx: GrowthContext): Promise<GrowthSeries> {
  const client = await register(ctx.sqlite.server.url, ctx.config.idleTimeoutMs);
  return searchSeries(ctx, 'SQLite', client, async (from, to) => seedSqlite(ctx.sqlite.server.dataDir, client.userId, from, to));
}

export async function searchGrowthPostgres(ctx: GrowthContext): Promise<GrowthSeries | null> {
  const postgres = ctx.postgres;
  if (!postgres) return null;
  return searchSeries(ctx, 'PostgreSQL', postgres.client, (from, to) =>
    seedPostgres(postgres.databaseUrl, postgres.client.userId, from, to),
  );
}
