import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { auditPage, launchAuditedBrowser } from '../../e2e/helpers/lighthouse.ts';
import { type CloudVaultClient, register, upload } from '../lib/cloudvault-api.ts';
import { measureFirstVisitScripts } from '../lib/first-visit-js.ts';
import type { ScenarioResult, Target } from './scenario.ts';

/** The targets of docs/decisions/0031: Lighthouse performance (mobile preset) per page, and the first visit's JavaScript. */
const PUBLIC_PAGES = ['/', '/login', '/register', '/pricing'];
const PUBLIC_TARGET = 95;
const DASHBOARD_TARGET = 90;
export const DASHBOARD_FILES = 300;
const FIRST_VISIT_JS_TARGET_KB = 150;
const EXTENSIONS = ['txt', 'md', 'csv', 'json', 'log'];

/**
 * `BENCH_LIGHTHOUSE_REPORTS=1` keeps each page's whole Lighthouse report (JSON) under
 * bench/results/lighthouse/ (git-ignored), to read the audits behind a score.
 */
const REPORTS_DIR =
  process.env.BENCH_LIGHTHOUSE_REPORTS === '1' ? path.join(import.meta.dirname, '..', 'results', 'lighthouse') : undefined;
const runStamp = new Date().toISOString().replace(/[:.]/g, '-');
const reportFile = (page: string) =>
  REPORTS_DIR && path.join(REPORTS_DIR, `${runStamp}${page === '/' ? '-landing' : page.replace(/\//g, '-')}.json`);

const load = () => `load ${os.loadavg()[0]!.toFixed(2)}`;

/** A fresh user whose root folder holds `count` small files of a few types, as a real drive would. */
export async function seedDrive(url: string, dir: string, count: number, idleTimeoutMs: number): Promise<CloudVaultClient> {
  const client = await register(url, idleTimeoutMs);
  await mkdir(dir, { recursive: true });
  for (let index = 0; index < count; index++) {
    const name = `note-${String(index).padStart(3, '0')}.${EXTENSIONS[index % EXTENSIONS.length]}`;
    const file = path.join(dir, name);
    const body = `File ${index} of the Lighthouse drive.\n`.repeat(1 + (index % 40));
    await writeFile(file, body);
    await upload(client, file, Buffer.byteLength(body), name);
  }
  return client;
}

/**
 * Lighthouse's performance score (mobile preset: simulated slow 4G and 4× CPU slowdown) on
 * the public pages and on /dashboard with 300 files, and the gzipped JavaScript a first
 * visit to / downloads. Scores depend on the machine's load, which each figure carries.
 * Needs the web build (`startOurServer` serves apps/web/dist, built first if stale).
 */
export async function lighthousePerformance(url: string, tempDir: string, idleTimeoutMs: number): Promise<ScenarioResult> {
  const targets: Target[] = [];
  const notes: string[] = [];
  const { browser, port } = await launchAuditedBrowser();
  try {
    const firstVisit = await measureFirstVisitScripts(browser, `${url}/`);
    const gzipKB = firstVisit.gzipBytes / 1000;
    targets.push({
      description: `JavaScript of a first visit to /, gzip ≤ ${FIRST_VISIT_JS_TARGET_KB} KB`,
      measured: `${gzipKB.toFixed(1)} KB (brotli ${(firstVisit.brotliBytes / 1000).toFixed(1)} KB)`,
      met: gzipKB <= FIRST_VISIT_JS_TARGET_KB,
    });
    notes.push(
      `first visit to /: ${firstVisit.scripts.map((script) => `${path.basename(script.path)} ${(script.gzipBytes / 1000).toFixed(1)}`).join(', ')} (KB gzip)`,
    );

    for (const page of PUBLIC_PAGES) {
      const [performance] = await auditPage(`${url}${page}`, port, ['performance'], {}, reportFile(page));
      targets.push({
        description: `Lighthouse performance ${page} ≥ ${PUBLIC_TARGET}`,
        measured: `${performance!.score} (${load()})`,
        met: performance!.score >= PUBLIC_TARGET,
      });
      if (performance!.score < 100) notes.push(`${page}: ${performance!.failing.join(', ')}`);
    }

    const client = await seedDrive(url, path.join(tempDir, 'lighthouse-drive'), DASHBOARD_FILES, idleTimeoutMs);
    await signInAndClearCache(port, url, client.token);
    // The session is in localStorage: Lighthouse must not wipe the origin's storage, and the
    // HTTP cache was emptied above so the dashboard loads cold like the public pages.
    const [dashboard] = await auditPage(`${url}/dashboard`, port, ['performance'], { disableStorageReset: true }, reportFile('/dashboard'));
    targets.push({
      description: `Lighthouse performance /dashboard (${DASHBOARD_FILES} files) ≥ ${DASHBOARD_TARGET}`,
      measured: `${dashboard!.score} (${load()})`,
      met: dashboard!.score >= DASHBOARD_TARGET,
    });
    if (dashboard!.score < 100) notes.push(`/dashboard: ${dashboard!.failing.join(', ')}`);
  } finally {
    await browser.close();
  }
  return { id: 'lighthouse-performance', title: 'Lighthouse performance (mobile)', compares: 'p99Ms', figures: [], notes, targets };
}

/** Puts the session token into the origin's localStorage of the browser's default context (the one Lighthouse audits in) and empties its HTTP cache. */
export async function signInAndClearCache(port: number, url: string, token: string): Promise<void> {
  const attached = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = attached.contexts()[0];
    if (!context) throw new Error('Chromium has no default context');
    const page = await context.newPage();
    await page.goto(`${url}/robots.txt`);
    await page.evaluate(`localStorage.setItem('token', ${JSON.stringify(token)})`);
    const session = await context.newCDPSession(page);
    await session.send('Network.clearBrowserCache');
    await page.close();
  } finally {
    // Disconnects this client only: the browser stays up for Lighthouse.
    await attached.close();
  }
}
