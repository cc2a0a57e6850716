import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer, type AppServer } from './helpers/app-server.ts';
import { auditPage, launchAuditedBrowser } from './helpers/lighthouse.ts';

/**
 * Lighthouse's timing-free categories on the public pages, mobile preset. The
 * performance score depends on the machine's load, so it runs in `npm run bench` only.
 */
let server: AppServer;
let browser: Browser;
let port: number;

beforeAll(async () => {
  server = await startAppServer();
  ({ browser, port } = await launchAuditedBrowser());
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('Lighthouse, mobile preset', () => {
  it.each(['/', '/login', '/register', '/pricing'])('scores %s at least 95 for accessibility, best practices and SEO', async (path) => {
    const scores = await auditPage(`${server.url}${path}`, port, ['accessibility', 'best-practices', 'seo']);
    for (const { category, score, failing } of scores) {
      expect(score, `${category} on ${path}: ${failing.join(', ')}`).toBeGreaterThanOrEqual(95);
    }
  });
});
