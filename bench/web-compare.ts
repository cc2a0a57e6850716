/**
 * `BENCH_BASELINE_DIST=/path/to/dist npm run bench:web-compare`: Lighthouse's mobile
 * performance of two builds of the web app in the same minutes. The current build (apps/web/dist,
 * built first if stale) and the one in BENCH_BASELINE_DIST (a copy of an earlier
 * apps/web/dist) are each served by their own server with their own 300-file user, and
 * audited alternately, page by page, `BENCH_ROUNDS` times (default 3): on this shared machine
 * a score moves by ±10 with the load, so only audits taken side by side compare.
 * `BENCH_PAGES` (comma-separated, default /dashboard) picks the pages. Prints each audit's
 * score, LCP, TBT and FCP (simulated) with the load average, then the medians.
 * `BENCH_CURRENT_DIST` audits another build in place of apps/web/dist.
 * `BENCH_LIGHTHOUSE_REPORTS=1` keeps every report (JSON) in bench/results/lighthouse/.
 */
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { auditPage, launchAuditedBrowser } from '../e2e/helpers/lighthouse.ts';
import { DASHBOARD_FILES, seedDrive, signInAndClearCache } from './scenarios/lighthouse-performance.ts';
import { type OurServer, startOurServer } from './servers/ours.ts';
import { median } from './lib/stats.ts';
import { ensureWebBuild } from '../scripts/ensure-builds.mjs';

const baselineDist = process.env.BENCH_BASELINE_DIST;
if (!baselineDist) throw new Error('Set BENCH_BASELINE_DIST to the baseline build (a copy of apps/web/dist)');
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const pages = (process.env.BENCH_PAGES ?? '/dashboard').split(',');

interface Audit {
  score: number;
  lcpMs: number;
  tbtMs: number;
  fcpMs: number;
}

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const tempRoot = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-bench-web-compare-'));
const builds: { name: string; server?: OurServer; token?: string; audits: Map<string, Audit[]> }[] = [
  { name: 'baseline', audits: new Map() },
  { name: 'current', audits: new Map() },
];
const reportsDir = process.env.BENCH_LIGHTHOUSE_REPORTS === '1' ? path.join(import.meta.dirname, 'results', 'lighthouse') : tempRoot;
const runStamp = new Date().toISOString().replace(/[:.]/g, '-');
const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

try {
  // The current build is served from a copy: a rebuild during the run must not change it.
  if (!process.env.BENCH_CURRENT_DIST) ensureWebBuild();
  const currentDist = path.join(tempRoot, 'current-dist');
  await cp(process.env.BENCH_CURRENT_DIST ?? path.join(repoRoot, 'apps/web/dist'), currentDist, { recursive: true });
  for (const build of builds) {
    const env = { WEB_DIST_DIR: build.name === 'baseline' ? path.resolve(baselineDist) : currentDist };
    build.server = await startOurServer(repoRoot, path.join(tempRoot, build.name), env);
    if (pages.includes('/dashboard'))
      build.token = (await seedDrive(build.server.url, path.join(tempRoot, build.name, 'drive'), DASHBOARD_FILES, 60_000)).token;
  }
  const { browser, port } = await launchAuditedBrowser();
  try {
    process.stdout.write(`2 builds, ${rounds} rounds, pages ${pages.join(' ')}; load ${load()} at start\n`);
    for (let round = 1; round <= rounds; round++) {
      for (const page of pages) {
        // Alternate which build goes first, so neither always follows the other.
        for (const build of round % 2 === 1 ? builds : [...builds].reverse()) {
          const audit = await auditOnce(
            build.server!,
            build.token,
            page,
            port,
            path.join(reportsDir, `${runStamp}-compare${page.replace(/\//g, '-')}-${build.name}-${round}.json`),
          );
          const audits = build.audits.get(page) ?? [];
          audits.push(audit);
          build.audits.set(page, audits);
          process.stdout.write(
            `round ${round} ${page} ${build.name}: ${audit.score} (LCP ${audit.lcpMs} ms, TBT ${audit.tbtMs} ms, FCP ${audit.fcpMs} ms) load ${load()}\n`,
          );
        }
      }
    }
  } finally {
    await browser.close();
  }
  for (const page of pages) {
    for (const build of builds) {
      const audits = build.audits.get(page) ?? [];
      const of = (pick: (audit: Audit) => number) => median(audits.map(pick));
      process.stdout.write(
        `median ${page} ${build.name}: ${of((a) => a.score)} (LCP ${of((a) => a.lcpMs)} ms, TBT ${of((a) => a.tbtMs)} ms, FCP ${of((a) => a.fcpMs)} ms) of ${audits.map((a) => a.score).join(', ')}\n`,
      );
    }
  }
} finally {
  for (const build of builds) await build.server?.stop();
  await rm(tempRoot, { recursive: true, force: true });
}

async function auditOnce(server: OurServer, token: string | undefined, page: string, port: number, reportFile: string): Promise<Audit> {
  const signedIn = page === '/dashboard';
  // The session of that server's user, and a cold HTTP cache, as the bench's own audit.
  if (signedIn) await signInAndClearCache(port, server.url, token!);
  const [performance] = await auditPage(
    `${server.url}${page}`,
    port,
    ['performance'],
    signedIn ? { disableStorageReset: true } : {},
    reportFile,
  );
  const lhr = JSON.parse(await readFile(reportFile, 'utf8')) as { audits: Record<string, { numericValue?: number }> };
  const metric = (id: string) => Math.round(lhr.audits[id]?.numericValue ?? Number.NaN);
  return {
    score: performance!.score,
    lcpMs: metric('largest-contentful-paint'),
    tbtMs: metric('total-blocking-time'),
    fcpMs: metric('first-contentful-paint'),
  };
}
