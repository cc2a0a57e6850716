/**
 * `npm run bench`: our server against nginx and a bare Node server, on the same files in
 * the same run, on 127.0.0.1 only. Everything it starts is stopped by PID and every temp
 * dir removed, also on Ctrl-C or when the deadline cuts the run off. Figures go to stdout
 * as a table and to bench/results/latest.json. Progress goes to stderr.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBenchConfig } from './config.ts';
import { register } from './lib/cloudvault-api.ts';
import { createFixtures } from './lib/fixtures.ts';
import { closeConnections } from './lib/http-client.ts';
import { formatMiB } from './lib/stats.ts';
import { type BenchReport, formatReport, judgeGoals, ratio, type ReportedScenario } from './report.ts';
import { concurrentUploads } from './scenarios/concurrent-uploads.ts';
import { largeFilesCopy, smallFilesCopy } from './scenarios/folder-copy.ts';
import { folderZip } from './scenarios/folder-zip.ts';
import { largeDownload } from './scenarios/large-download.ts';
import { largeUpload } from './scenarios/large-upload.ts';
import { listing } from './scenarios/listing.ts';
import { concurrentListing } from './scenarios/concurrent-listing.ts';
import { sortedListing } from './scenarios/sorted-listing.ts';
import { thumbnails } from './scenarios/thumbnails.ts';
import { davListing } from './scenarios/dav-listing.ts';
import { resumableUpload } from './scenarios/resumable-upload.ts';
import { lighthousePerformance } from './scenarios/lighthouse-performance.ts';
import type { ScenarioContext, ScenarioResult } from './scenarios/scenario.ts';
import { startBareNode } from './servers/bare-node.ts';
import { startNginx } from './servers/nginx.ts';
import { startOurServer } from './servers/ours.ts';
import { cleanUpGrowth, runGrowth } from './growth/run-growth.ts';
import { loadGrowthConfig } from './growth/growth-config.ts';
import type { BenchServer } from './servers/server.ts';
import { loadFeedConfig } from './changes/feed-config.ts';
import { changeWake, changeWakeTwoNodes } from './changes/wake-latency.ts';
import { changeStreams } from './changes/idle-streams.ts';
import { changeCatchUp } from './changes/catch-up.ts';
import { cleanUpSync, runSync } from './sync/run-sync.ts';
import { loadSyncConfig } from './sync/sync-config.ts';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const resultsFile = path.join(repoRoot, 'bench/results/latest.json');
const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

const config = loadBenchConfig(process.env);
/**
 * One group alone (bench/README.md): BENCH_ONLY=main the server's scenarios, BENCH_ONLY=sync the
 * sync client's (also `npm run bench -- sync`), BENCH_ONLY=growth the growth series (slow); all three when unset.
 */
const only = process.argv[2] ?? process.env.BENCH_ONLY;
if (only !== undefined && !['main', 'sync', 'growth'].includes(only)) {
  process.stderr.write(`[bench] unknown group ${only}: main, sync or growth\n`);
  process.exit(2);
}
const runs = (group: 'main' | 'sync' | 'growth') => only === undefined || only === group;
/** BENCH_SCENARIOS=listing,concurrent-listing runs only the scenarios with those ids (bench/README.md); all when unset. */
const chosen = process.env.BENCH_SCENARIOS ? new Set(process.env.BENCH_SCENARIOS.split(',').map((id) => id.trim())) : undefined;
const wanted = (id: string) => !chosen || chosen.has(id);
const startedAt = new Date();
const servers: BenchServer[] = [];
let tempRoot: string | undefined;

/** Stops what this run started, each by its PID, and removes the temp dir. Safe to call twice. */
async function cleanUp(): Promise<void> {
  closeConnections();
  await Promise.allSettled(servers.splice(0).map((server) => server.stop()));
  if (tempRoot) await rm(tempRoot, { recursive: true, force: true });
  tempRoot = undefined;
}

const abort = (why: string, code: number) => {
  log(why);
  void Promise.allSettled([cleanUp(), cleanUpSync(), cleanUpGrowth()]).finally(() => process.exit(code));
};
process.once('SIGINT', () => abort('interrupted: stopping the servers and removing temp files', 130));
process.once('SIGTERM', () => abort('terminated: stopping the servers and removing temp files', 143));
const watchdog = setTimeout(() => abort(`the run passed its ${config.deadlineMs / 60_000} min deadline: cut off`, 1), config.deadlineMs);

async function main(): Promise<BenchReport> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-bench-'));
  tempRoot = root;
  const warnings: string[] = [];
  // Other work on this 2-core machine (a test run, a build) skews every figure of the run.
  const [loadAverageAtStart] = os.loadavg() as [number];
  if (loadAverageAtStart > 1)
    warnings.push(
      `The machine was busy when the run started (load ${loadAverageAtStart.toFixed(2)} on ${os.cpus().length} cores): figures are noisy; re-run on an idle machine.`,
    );

  log(`generating test files (${config.quick ? 'quick' : 'full'} mode) in ${root}`);
  const fixtures = await createFixtures(root, config);

  log('starting our server, nginx and the bare Node server');
  const ours = await startOurServer(repoRoot, root);
  servers.push(ours);
  const nginx = await startNginx(root, fixtures.filesDir);
  if (nginx) servers.push(nginx);
  else
    warnings.push('nginx is NOT INSTALLED (apt-get install nginx-light): the nginx ceiling is NOT MEASURED and no target can be judged.');
  const bare = await startBareNode(root, fixtures.filesDir);
  servers.push(bare);
  const ceilings = nginx ? [nginx, bare] : [bare];

  const memories = async () =>
    Object.fromEntries(await Promise.all(servers.map(async (server) => [server.name, await server.memory()] as const)));
  const baselineMemory = await memories();

  const client = await register(ours.url, config.idleTimeoutMs);
  const ctx: ScenarioContext = { config, ours, client, ceilings, fixtures };
  const scenarios: ReportedScenario[] = [];
  const record = async (result: ScenarioResult) => {
    const peaks = await memories();
    scenarios.push({
      ...result,
      ratios: { nginx: ratio(result, 'nginx'), bareNode: ratio(result, 'bare node'), bareFastify: ratio(result, 'bare fastify') },
      peakRssAfter: Object.fromEntries(Object.entries(peaks).map(([name, memory]) => [name, memory?.peakBytes ?? null])),
    });
    for (const figure of result.figures)
      if (figure.status === 'failed') warnings.push(`${result.id}: ${figure.server} FAILED: ${figure.note}`);
  };

  // The peak judged is the transfers' own, not sign-up's password hash before them.
  await ours.resetPeak();
  let peakDuringLarge: number | null = null;
  if (wanted('large-upload') || wanted('large-download')) {
    log(`upload of ${formatMiB(fixtures.large.size)} (${config.rounds} round(s))`);
    const upload = await largeUpload(ctx);
    await record(upload.result);
    await record(upload.raw);
    log('download of it');
    await record(await largeDownload(ctx, upload.fileId));
    peakDuringLarge = (await ours.memory())?.peakBytes ?? null;
  }
  const scenario = async (id: string, what: string, run: () => Promise<ScenarioResult>) => {
    if (!wanted(id)) return;
    log(what);
    await record(await run());
  };
  await scenario('resumable-upload', `tus upload of ${formatMiB(fixtures.large.size)} against multipart (${config.rounds} round(s))`, () =>
    resumableUpload(ctx),
  );
  await scenario('concurrent-uploads', `${config.concurrentUploads} concurrent uploads`, () => concurrentUploads(ctx));
  await scenario('folder-zip', `folder zip of ${config.zipFileCount} files`, () => folderZip(ctx));
  await scenario('listing', `listing a folder of ${config.listingFileCount} files`, () => listing(ctx));
  await scenario('sorted-listing', `pages of a sorted folder of ${config.sortedListingFileCount} files by each sort and order`, () =>
    sortedListing(ctx),
  );
  await scenario(
    'concurrent-listing',
    `listing a folder of ${config.concurrentListingFileCount} files on ${config.concurrentListingConnections} connections`,
    () => concurrentListing(ctx, root),
  );
  await scenario('folder-copy-small', `copy of a folder of ${config.copySmallFileCount} small files against cp -r`, () =>
    smallFilesCopy(ctx, root),
  );
  await scenario('folder-copy-large', `copy of a folder of ${config.copyLargeFileCount} large files against cp -r`, () =>
    largeFilesCopy(ctx, root),
  );
  await scenario('thumbnails', `thumbnails of ${config.thumbnailPhotos} 12 MP JPEGs`, () => thumbnails(ctx));
  await scenario('dav-listing', `WebDAV PROPFIND of a folder of ${config.listingFileCount} files`, () => davListing(ctx));
  // The change feed (issue 37): each starts servers of its own, with accounts seeded straight into their database.
  const feed = loadFeedConfig(process.env);
  const feedWaiters = feed.wakeAccounts * feed.listenersPerAccount;
  await scenario('change-wake', `change feed: ${feedWaiters} waiters woken on one node`, () => changeWake(feed, repoRoot, root, log));
  await scenario('change-wake-two-nodes', `change feed: ${feedWaiters} waiters on node B woken by a change on node A`, () =>
    changeWakeTwoNodes(feed, repoRoot, root, log),
  );
  await scenario('change-streams', `change feed: ${feed.streamAccounts * feed.listenersPerAccount} idle streams on one node`, () =>
    changeStreams(feed, repoRoot, root, log),
  );
  await scenario('change-catch-up', `change feed: reading ${feed.catchUpChanges} changes after a cursor`, () =>
    changeCatchUp(feed, repoRoot, root, log),
  );
  await scenario('lighthouse-performance', "Lighthouse performance of the web pages and the first visit's JavaScript", () =>
    lighthousePerformance(ours.url, root, config.idleTimeoutMs),
  );

  const serverOutput = ours.output().trim();
  if (serverOutput) warnings.push(`our server logged (LOG_LEVEL=warn), last lines:\n${serverOutput.split('\n').slice(-20).join('\n')}`);

  return {
    mode: config.quick ? 'quick' : 'full',
    startedAt: startedAt.toISOString(),
    durationSeconds: (Date.now() - startedAt.getTime()) / 1000,
    machine: { cpus: os.cpus().length, node: process.version, nginx: nginx?.version ?? null, loadAverageAtStart },
    config,
    baselineMemory,
    scenarios,
    goals: judgeGoals(scenarios, peakDuringLarge, formatMiB(fixtures.large.size)),
    warnings,
  };
}

if (!runs('main')) clearTimeout(watchdog);
else
  try {
    const report = await main();
    await mkdir(path.dirname(resultsFile), { recursive: true });
    // Three decimals are more than any of these figures can claim.
    const rounded = (_key: string, value: unknown) =>
      typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 1000) / 1000 : value;
    await writeFile(resultsFile, `${JSON.stringify(report, rounded, 2)}\n`);
    process.stdout.write(`${formatReport(report)}\n\nJSON: ${path.relative(repoRoot, resultsFile)}\n`);
    // A benchmark is not a test: missed targets do not fail it, a broken measurement does.
    if (report.scenarios.some((scenario) => scenario.figures.some((figure) => figure.status === 'failed'))) process.exitCode = 1;
  } catch (error) {
    log(`the benchmark could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  } finally {
    clearTimeout(watchdog);
    await cleanUp();
  }

if (runs('sync')) {
  const syncWatchdog = setTimeout(
    () => abort('the sync client group passed its deadline: cut off', 1),
    loadSyncConfig(process.env).deadlineMs,
  );
  try {
    const sync = await runSync(repoRoot, log);
    process.stdout.write(`\n${sync.text}\n`);
    if (sync.failed) process.exitCode = 1;
  } catch (error) {
    log(`the sync client group could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  } finally {
    clearTimeout(syncWatchdog);
  }
}

if (runs('growth')) {
  const growthWatchdog = setTimeout(
    () => abort('the growth series passed their deadline (GROWTH_DEADLINE_MINUTES): cut off', 1),
    loadGrowthConfig(process.env).deadlineMs,
  );
  try {
    const growth = await runGrowth(repoRoot, log);
    process.stdout.write(`\n${growth.text}\n`);
    if (growth.failed) process.exitCode = 1;
  } catch (error) {
    log(`the growth series could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  } finally {
    clearTimeout(growthWatchdog);
  }
}
