import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { onTestFailed } from 'vitest';

const screenshotDir = fileURLToPath(new URL('../../.test-artifacts/screenshots', import.meta.url));

/** Debian's Chromium, headless, with the flags that keep it off the closed network. */
export const CHROMIUM_LAUNCH = {
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

export function launchBrowser(): Promise<Browser> {
  return chromium.launch(CHROMIUM_LAUNCH);
}

/**
 * Contexts of the journeys run without the web app's service worker: each would install it
 * and fetch the whole precache (about 3 MB) first, which cost the browser phase minutes.
 * e2e/pwa.test.ts proves the worker in a profile of its own.
 */
export const WITHOUT_SERVICE_WORKER = { serviceWorkers: 'block' } as const;

export interface PageOptions {
  /** Signed in without going through the form: the token is in localStorage before the app loads. */
  token?: string;
  viewport?: { width: number; height: number };
  /** A phone: touch events and the mobile viewport behaviour (with `viewport`, e.g. 390x844). */
  mobile?: boolean;
}

/**
 * A fresh context and page for one test. On failure the page is saved as a screenshot
 * under .test-artifacts/screenshots.
 */
export async function openPage(
  browser: Browser,
  baseURL: string,
  options: PageOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    ...WITHOUT_SERVICE_WORKER,
    baseURL,
    viewport: options.viewport ?? { width: 1280, height: 800 },
    ...(options.mobile ? { isMobile: true, hasTouch: true } : {}),
  });
  if (options.token) {
    await context.addInitScript((token) => window.localStorage.setItem('token', token), options.token);
  }
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  onTestFailed(async ({ task }) => {
    await mkdir(screenshotDir, { recursive: true });
    await page.screenshot({ path: path.join(screenshotDir, `${task.name.replace(/\W+/g, '-')}.png`), fullPage: true }).catch(() => {});
  });
  return { context, page };
}
