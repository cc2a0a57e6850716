import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import lighthouse, { type Flags } from 'lighthouse';
import { chromium, type Browser } from 'playwright-core';
import { freePort } from '../../apps/server/test/helpers/free-port.ts';

export type LighthouseCategory = 'performance' | 'accessibility' | 'best-practices' | 'seo';

/** A Chromium Lighthouse can drive: Debian's, headless, with its DevTools port open. */
export async function launchAuditedBrowser(): Promise<{ browser: Browser; port: number }> {
  const port = await freePort();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: [
      `--remote-debugging-port=${port}`,
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
    ],
  });
  return { browser, port };
}

export interface CategoryScore {
  category: LighthouseCategory;
  /** 0–100, as Lighthouse shows it. */
  score: number;
  /** The audits of the category that did not pass, by id, for a failure message. */
  failing: string[];
}

/**
 * Runs Lighthouse's mobile preset (its default) on `url` for the given categories. With
 * `reportFile`, the whole report (JSON) is also written there, for reading every audit.
 */
export async function auditPage(
  url: string,
  port: number,
  categories: LighthouseCategory[],
  flags: Flags = {},
  reportFile?: string,
): Promise<CategoryScore[]> {
  const lhr = await runLighthouse(url, { port, onlyCategories: categories, output: 'json', logLevel: 'error', ...flags });
  if (reportFile) {
    await mkdir(path.dirname(reportFile), { recursive: true });
    await writeFile(reportFile, JSON.stringify(lhr, null, 1));
  }
  if (lhr.runtimeError) throw new Error(`Lighthouse could not audit ${url}: ${lhr.runtimeError.message}`);
  return categories.map((category) => {
    const found = lhr.categories[category];
    if (!found) throw new Error(`Lighthouse has no ${category} category`);
    const failing = found.auditRefs
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map(
        (ref) =>
          `${ref.id} (${lhr.audits[ref.id]?.title ?? ''}${lhr.audits[ref.id]?.displayValue ? `: ${lhr.audits[ref.id]?.displayValue}` : ''})`,
      );
    return { category, score: Math.round((found.score ?? 0) * 100), failing };
  });
}

/** Lighthouse's own advice for a trace that missed the navigation's start ("run Lighthouse again"). */
const RETRIED_RUNTIME_ERRORS = new Set(['NO_NAVSTART']);
const ATTEMPTS = 3;

async function runLighthouse(url: string, flags: Flags) {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, flags);
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const code = result.lhr.runtimeError?.code;
    if (code === undefined || !RETRIED_RUNTIME_ERRORS.has(code) || attempt === ATTEMPTS) return result.lhr;
  }
}
