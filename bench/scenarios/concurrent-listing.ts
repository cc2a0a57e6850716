import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createFolder } from '../lib/cloudvault-api.ts';
import { type Exchange, request } from '../lib/http-client.ts';
import { median, percentile } from '../lib/stats.ts';
import { startBareFastify } from '../servers/bare-fastify.ts';
import { insertRows } from './listing.ts';
import { interleave, type ScenarioContext, type ScenarioResult } from './scenario.ts';

interface Round {
  requestsPerSecond: number;
  latenciesMs: number[];
}

/**
 * A small folder's listing asked by many clients at once (keep-alive connections, each
 * asking again as soon as it has its answer), against a bare Fastify route that answers
 * the same JSON from memory: what our hooks, authentication and query cost per request.
 */
export async function concurrentListing(ctx: ScenarioContext, tempRoot: string): Promise<ScenarioResult> {
  const {
    concurrentListingFileCount: count,
    concurrentListingConnections: connections,
    concurrentListingMs: durationMs,
    idleTimeoutMs,
  } = ctx.config;
  const folderId = await createFolder(ctx.client, 'concurrent-listing-bench');
  insertRows(ctx.ours.dataDir, ctx.client.userId, folderId, count);
  const ourUrl = `${ctx.client.url}/api/files?folderId=${folderId}`;
  const headers = { authorization: `Bearer ${ctx.client.token}` };
  const first = await request(ourUrl, { headers, keepText: true, idleTimeoutMs });
  if (first.status !== 200) throw new Error(`GET /api/files?folderId= answered ${first.status}`);
  const listingFile = path.join(tempRoot, 'concurrent-listing.json');
  await writeFile(listingFile, first.text);
  const bare = await startBareFastify(listingFile);

  const load = async (get: () => Promise<Exchange>): Promise<Round> => {
    const latenciesMs: number[] = [];
    const started = performance.now();
    const until = started + durationMs;
    const client = async () => {
      while (performance.now() < until) {
        const response = await get();
        if (response.status !== 200 || response.bytes !== first.bytes)
          throw new Error(`answered ${response.status} with ${response.bytes} bytes, expected ${first.bytes}`);
        latenciesMs.push(response.ms);
      }
    };
    await Promise.all(Array.from({ length: connections }, client));
    return { requestsPerSecond: latenciesMs.length / ((performance.now() - started) / 1000), latenciesMs };
  };
  try {
    const outcomes = await interleave<Round>(ctx.config.rounds, [
      { server: 'ours', run: () => load(() => request(ourUrl, { headers, idleTimeoutMs })) },
      { server: 'bare fastify', run: () => load(() => request(bare.listingUrl, { idleTimeoutMs })) },
    ]);
    return {
      id: 'concurrent-listing',
      title: `Listing a folder of ${count} files, ${connections} connections`,
      compares: 'requestsPerSecond',
      figures: [...outcomes].map(([server, outcome]) => {
        const latencies = outcome.samples.flatMap((round) => round.latenciesMs);
        const samples = outcome.samples.map((round) => round.requestsPerSecond);
        return {
          server,
          status: outcome.status,
          note: outcome.note,
          samples,
          requestsPerSecond: median(samples),
          p50Ms: percentile(latencies, 50),
          p99Ms: percentile(latencies, 99),
        };
      }),
      notes: [
        `${(first.bytes / 1e3).toFixed(1)} kB of JSON per answer; ${connections} keep-alive connections for ${durationMs / 1000} s per round, ${ctx.config.rounds} round(s), median requests/s.`,
        'bare fastify: a Fastify app with one route and no plugins, returning the same JSON parsed once at start-up (serialized per request); ours authenticates and queries SQLite each time.',
        'The client runs on the same 2 cores as the server: both figures pay for it alike.',
      ],
    };
  } finally {
    await bare.stop();
  }
}
