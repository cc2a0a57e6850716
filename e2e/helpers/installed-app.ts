import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_LAUNCH } from './browser.ts';

/**
 * A phone (390×844, touch) whose browser keeps what the app installs: a persistent Chromium
 * profile under `workDir`, since Chromium installs no service worker in an incognito context
 * (the other journeys' contexts block it on purpose, helpers/browser.ts). One page, opened on `baseURL`.
 */
export async function launchPhoneWithProfile(workDir: string, baseURL: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await chromium.launchPersistentContext(path.join(workDir, 'profile'), {
    ...CHROMIUM_LAUNCH,
    baseURL,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(10_000);
  return { context, page };
}

/**
 * Waits until the service worker a page of the app registered is ready, and goes to `address`,
 * which it then controls (a worker controls the pages opened after it was installed).
 */
export async function openControlled(page: Page, address: string): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.goto(address);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}
