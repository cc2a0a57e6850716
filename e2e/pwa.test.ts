import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { violationsInEachTheme } from './helpers/axe.ts';
import { startAppServer, type AppServer } from './helpers/app-server.ts';
import { launchPhoneWithProfile } from './helpers/installed-app.ts';

// The installable app (docs/decisions/0065-installable-app.md), on a phone: Chromium finds
// nothing missing to install it, its shell opens without a network, a new build is announced
// rather than swapped in, and the Upload shortcut opens the upload dialog. One page through
// them all, as a visitor returning to it would: the server serves a copy of the build, which
// the third test changes as a deploy would.
// A persistent profile, not a fresh context: Chromium installs nothing from an incognito one.

const builtWeb = fileURLToPath(new URL('../apps/web/dist', import.meta.url));

let workDir: string;
let web: string;
let server: AppServer;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-e2e-pwa-'));
  web = path.join(workDir, 'web');
  await cp(builtWeb, web, { recursive: true });
  server = await startAppServer({ WEB_DIST_DIR: web });
  ({ context, page } = await launchPhoneWithProfile(workDir, server.url));
});
afterAll(async () => {
  await Promise.all([context?.close(), server?.stop()]);
  await rm(workDir, { recursive: true, force: true });
});

describe('the installable app on a phone', () => {
  it('is installable once its service worker controls the page, with icons that load at their sizes', async () => {
    // The landing page registers nothing: its readers would download the whole app.
    await page.goto('/', { waitUntil: 'networkidle' });
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()) === undefined)).toBe(true);
    await page.goto('/login');
    await page.evaluate(() => navigator.serviceWorker.ready);
    // A service worker controls the pages opened after it was installed.
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: unknown[] };
    expect(installabilityErrors).toEqual([]);

    const icons = await page.evaluate(async () => {
      const manifest = (await (await fetch('/manifest.webmanifest')).json()) as {
        icons: { src: string; sizes: string; purpose: string }[];
      };
      return Promise.all(
        manifest.icons.map(async ({ src, sizes, purpose }) => {
          const image = new Image();
          image.src = src;
          await image.decode();
          return { purpose, sizes, drawn: `${image.naturalWidth}x${image.naturalHeight}` };
        }),
      );
    });
    expect(icons.map(({ purpose }) => purpose).sort()).toEqual(['any', 'any', 'maskable']);
    for (const icon of icons) expect(icon.drawn).toBe(icon.sizes);
  });

  it('opens the app without a network', async () => {
    await context.setOffline(true);
    try {
      // A visitor's /dashboard sends them to sign in: the page, its chunks and its words all come from the device.
      await page.goto('/dashboard');
      await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
      expect(page.url()).toBe(`${server.url}/login`);
      expect(
        await page.evaluate(() =>
          fetch('/api/health').then(
            () => 'reached',
            () => 'offline',
          ),
        ),
      ).toBe('offline');
    } finally {
      await context.setOffline(false);
    }
  });

  it('announces a new build, and reloads into it when the user accepts', async () => {
    // A deploy: a changed index.html, and the service worker whose precache names its new revision.
    const html = await readFile(path.join(web, 'index.html'), 'utf8');
    await writeFile(path.join(web, 'index.html'), html.replace('</head>', '<meta name="cloudvault-build" content="2" /></head>'));
    await Promise.all(['index.html.br', 'index.html.gz'].map((file) => rm(path.join(web, file))));
    const worker = await readFile(path.join(web, 'sw.js'), 'utf8');
    const revised = worker.replace(/\{"revision":"[0-9a-f]+","url":"index\.html"\}/, '{"revision":"build-2","url":"index.html"}');
    expect(revised).not.toBe(worker);
    await writeFile(path.join(web, 'sw.js'), revised);

    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    const notice = page.getByText('A new version of CloudVault is available.');
    await notice.waitFor();
    expect(await violationsInEachTheme(page)).toEqual([]);
    // Until the user accepts, the page stays the version it is.
    expect(await page.locator('meta[name="cloudvault-build"]').count()).toBe(0);

    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Reload to update' }).click()]);
    await page.locator('meta[name="cloudvault-build"]').waitFor({ state: 'attached' });
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
    expect(await notice.count()).toBe(0);
  });

  it("opens the upload dialog from the manifest's Upload shortcut", async () => {
    const { token } = await createUser(server);
    const shortcuts = await page.evaluate(async () => {
      const manifest = (await (await fetch('/manifest.webmanifest')).json()) as { shortcuts: { name: string; url: string }[] };
      return manifest.shortcuts;
    });
    expect(shortcuts.map(({ name }) => name)).toEqual(['Upload', 'Recent']);
    await page.evaluate((value) => localStorage.setItem('token', value), token);
    await page.goto(shortcuts[0]!.url);
    await page.getByRole('dialog', { name: 'Upload Files' }).waitFor();
    // The parameter goes, so that a reload does not open the dialog again.
    expect(new URL(page.url()).search).toBe('');
  });
});
