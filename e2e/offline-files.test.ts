import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFile, uploadFile } from '@cloudvault/test-support/drive';
import { violationsInEachTheme } from './helpers/axe.ts';
import { downloadedBytes, tile } from './helpers/drive.ts';
import { makePdf, makePicture, pdfCanvasHasInk } from './helpers/media-files.ts';
import { startAppServer, type AppServer } from './helpers/app-server.ts';
import { launchPhoneWithProfile, openControlled } from './helpers/installed-app.ts';

// Files kept "available offline" on a phone (docs/decisions/0066-offline-and-sharing-in.md):
// one marked in the file's menu opens in the viewer and downloads with the network gone, one
// not marked says why it cannot open; the upload dialog offers the camera; Back (a phone's
// back gesture) closes the viewer. A persistent profile: an incognito one installs no service worker.

let workDir: string;
let server: AppServer;
let context: BrowserContext;
let page: Page;
let picture: string;

const viewer = (name: string) => page.getByRole('dialog', { name: `Viewer: ${name}` });

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-e2e-offline-files-'));
  server = await startAppServer();
  ({ context, page } = await launchPhoneWithProfile(workDir, server.url));
  const { token } = await createUser(server);
  picture = makePicture(workDir, 'harbour.png', '640x480');
  await uploadFile(server, token, { path: picture }, { name: 'harbour.png', type: 'image/png' });
  await createFile(server, token, 'only online\n', { name: 'notes.txt', type: 'text/plain' });
  await createFile(server, token, { path: await makePdf(workDir, 'report.pdf') }, { name: 'report.pdf', type: 'application/pdf' });

  await page.goto('/login');
  await page.evaluate((value) => localStorage.setItem('token', value), token);
  await openControlled(page, '/dashboard');
});
afterAll(async () => {
  await Promise.all([context?.close(), server?.stop()]);
  await rm(workDir, { recursive: true, force: true });
});

describe('files available offline on a phone', () => {
  it('keeps a file on the device from its menu and marks it', async () => {
    await tile(page, 'harbour.png').getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Make available offline' }).click();
    await page.getByText('“harbour.png” is available offline').waitFor();
    await tile(page, 'harbour.png').getByRole('img', { name: 'Available offline' }).waitFor();
    expect(await tile(page, 'notes.txt').getByRole('img', { name: 'Available offline' }).count()).toBe(0);
    expect(await violationsInEachTheme(page)).toEqual([]);
    // Recent marks it too.
    await page.goto('/recent');
    const recent = (name: string) => page.getByRole('listitem', { name, exact: true });
    await recent('harbour.png').getByRole('img', { name: 'Available offline' }).waitFor();
    expect(await recent('notes.txt').getByRole('img', { name: 'Available offline' }).count()).toBe(0);
    await page.goto('/dashboard');

    // Its menu now offers to remove the copy instead.
    await tile(page, 'harbour.png').getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Remove offline copy' }).waitFor();
    await page.keyboard.press('Escape');

    // And from the viewer's toolbar.
    await tile(page, 'report.pdf').tap();
    await viewer('report.pdf').getByRole('button', { name: 'Make available offline' }).click();
    await page.getByText('“report.pdf” is available offline').waitFor();
    await viewer('report.pdf').getByRole('button', { name: 'Remove offline copy' }).waitFor();
    await page.keyboard.press('Escape');
    await viewer('report.pdf').waitFor({ state: 'detached' });
  });

  it('offers the camera in the upload dialog', async () => {
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload Files' });
    await dialog.getByRole('button', { name: 'Take photo or video' }).waitFor();
    const camera = dialog.getByLabel('Take photo or video', { exact: true }).and(page.locator('input[type="file"]'));
    expect(await camera.getAttribute('capture')).toBe('environment');
    expect(await camera.getAttribute('accept')).toBe('image/*,video/*');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('says why a file not kept cannot open without a network, and opens and downloads the kept one from the device', async () => {
    await context.setOffline(true);
    try {
      // setOffline cuts the service worker's own fetches too in this Chromium, not only the page's.
      const [worker] = context.serviceWorkers();
      expect(
        await worker!.evaluate(() =>
          fetch('/api/health').then(
            () => 'reached',
            () => 'offline',
          ),
        ),
      ).toBe('offline');

      await page.goto('/dashboard');
      await tile(page, 'notes.txt').tap();
      await viewer('notes.txt').getByText('You are offline, and this file is not available offline on this device.').waitFor();
      expect(await violationsInEachTheme(page)).toEqual([]);
      // A phone's back gesture is history's Back: it closes the viewer, the folder stays.
      await page.goBack();
      await viewer('notes.txt').waitFor({ state: 'detached' });
      expect(new URL(page.url()).searchParams.get('view')).toBeNull();

      await tile(page, 'harbour.png').tap();
      await viewer('harbour.png').waitFor();
      // The original from the device, not only its thumbnail.
      await page.waitForFunction(() =>
        Array.from(document.querySelectorAll<HTMLImageElement>('[role="dialog"] img')).some(
          (image) => new URL(image.src).pathname.startsWith('/offline-files/') && image.complete && image.naturalWidth === 640,
        ),
      );
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        viewer('harbour.png').getByRole('button', { name: 'Download' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('harbour.png');
      expect((await downloadedBytes(download)).equals(await readFile(picture))).toBe(true);

      // A PDF, read by pdf.js in ranges, which the service worker answers from the copy.
      await page.keyboard.press('Escape');
      await viewer('harbour.png').waitFor({ state: 'detached' });
      await tile(page, 'report.pdf').tap();
      await viewer('report.pdf').waitFor();
      await expect.poll(() => pdfCanvasHasInk(page)).toBe(true);
    } finally {
      await context.setOffline(false);
    }
  });
});
