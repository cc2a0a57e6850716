import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { request } from '../lib/http-client.ts';
import { percentile } from '../lib/stats.ts';
import type { ScenarioResult } from '../scenarios/scenario.ts';
import type { FeedConfig } from './feed-config.ts';
import { type FeedAccount, fillJournal, openSeedDatabase, seedAccounts } from './feed-database.ts';
import { latestCursor } from './feed-http.ts';
import { startSqliteNode } from './feed-servers.ts';
import { cpuSeconds } from './process-cpu.ts';

const TARGET_PER_SECOND = 50_000;
const WARM_UP_PAGES = 5;

/** Every page after `cursor` (or the first `maxPages`) on one kept-alive connection: the page times and the changes read. */
async function readAll(url: string, account: FeedAccount, cursor: string, limit: number, idleTimeoutMs: number, maxPages = Infinity) {
  const pageMs: number[] = [];
  let read = 0;
  for (let position = cursor; ;) {
    const page = await request(`${url}/api/changes?cursor=${position}&limit=${limit}`, {
      headers: { authorization: `Bearer ${account.token}` },
      keepText: true,
      idleTimeoutMs,
    });
    if (page.status !== 200) throw new Error(`GET /api/changes answered ${page.status}: ${page.text.slice(0, 200)}`);
    const body = JSON.parse(page.text) as { changes: unknown[]; cursor: string; hasMore: boolean };
    pageMs.push(page.ms);
    read += body.changes.length;
    position = body.cursor;
    if (!body.hasMore || pageMs.length >= maxPages) return { pageMs, read };
  }
}

/**
 * Catching up: an account's `catchUpChanges` journal entries (inserted straight into the
 * database as uploads write them, bench/README.md) read after the cursor from before them,
 * in pages of 1,000 through HTTP on one kept-alive connection, as a sync client back from
 * a week offline would; changes per second over the whole read, the median of the rounds.
 */
export async function changeCatchUp(
  config: FeedConfig,
  repoRoot: string,
  root: string,
  log: (message: string) => void,
): Promise<ScenarioResult> {
  const setup = await startSqliteNode(repoRoot, path.join(root, 'change-catch-up'));
  const [node] = setup.nodes as [(typeof setup.nodes)[number]];
  try {
    const db = await openSeedDatabase(setup.database);
    let account: FeedAccount;
    try {
      [account] = (await seedAccounts(db, setup.jwtSecret, 1, 'catch-up')) as [FeedAccount];
    } finally {
      await db.close();
    }
    const start = await latestCursor(node.url, account);
    const journal = await openSeedDatabase(setup.database);
    try {
      await fillJournal(journal, account.userId, 1, config.catchUpChanges, Date.now() - config.catchUpChanges);
    } finally {
      await journal.close();
    }

    // Not timed: the route's first pages compile its code and warm SQLite's page cache.
    await readAll(node.url, account, start, config.catchUpPage, config.idleTimeoutMs, WARM_UP_PAGES);
    const rates: number[] = [];
    /** Changes per second of the server's own CPU time: what the machine's load does not move. */
    const cpuRates: number[] = [];
    const pageMs: number[] = [];
    const loads: string[] = [];
    for (let round = 1; round <= config.catchUpRounds; round++) {
      loads.push(os.loadavg()[0]!.toFixed(1));
      log(`  reading ${config.catchUpChanges} changes, round ${round} of ${config.catchUpRounds}`);
      const cpuBefore = await cpuSeconds(node.pid);
      const started = performance.now();
      const all = await readAll(node.url, account, start, config.catchUpPage, config.idleTimeoutMs);
      const seconds = (performance.now() - started) / 1000;
      if (all.read !== config.catchUpChanges) throw new Error(`read ${all.read} changes of ${config.catchUpChanges}`);
      rates.push(all.read / seconds);
      cpuRates.push(all.read / ((await cpuSeconds(node.pid)) - cpuBefore));
      pageMs.push(...all.pageMs);
    }
    const rate = percentile(rates, 50);
    return {
      id: 'change-catch-up',
      title: `Change feed: catching up ${config.catchUpChanges.toLocaleString('en')} changes in pages of ${config.catchUpPage} (SQLite)`,
      compares: 'p99Ms',
      figures: [
        {
          server: 'ours',
          status: 'measured',
          samples: pageMs,
          p50Ms: percentile(pageMs, 50),
          p99Ms: percentile(pageMs, 99),
          note: 'time per page',
        },
      ],
      notes: [
        `${config.catchUpChanges} journal entries of one account (op created, a file's state each), inserted straight into SQLite, read after the cursor from before them with GET /api/changes?limit=${config.catchUpPage} on one kept-alive connection until hasMore is false, after ${WARM_UP_PAGES} pages read untimed; the figure is the time per page. Changes per second in each round: ${rates.map((value) => value.toFixed(0)).join(', ')} (load average ${loads.join(', ')}); per second of the server's CPU time (user and system, /proc/<pid>/stat): ${cpuRates.map((value) => value.toFixed(0)).join(', ')}.`,
      ],
      targets: [
        {
          description: `Change feed: reading ${config.catchUpChanges} changes after a cursor ≥ ${TARGET_PER_SECOND.toLocaleString('en')} changes/s`,
          measured: `${rate.toFixed(0)} changes/s`,
          met: rate >= TARGET_PER_SECOND,
        },
      ],
    };
  } finally {
    await setup.stop();
  }
}
