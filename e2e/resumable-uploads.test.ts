import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { downloadFile, listFiles } from '@cloudvault/test-support/drive';
import { callApi } from '@cloudvault/test-support/running-server';
import { openPage } from './helpers/browser.ts';
import { randomContent, tile } from './helpers/drive.ts';
import { useE2eSession } from './helpers/session.ts';

// Uploads of large files through tus-js-client against the server's /api/uploads
// (docs/decisions/0026-browser-resumable-uploads.md): offline halfway, pause, cancel,
// and a reload that needs the file picked again.

const session = useE2eSession('resumable');

/** Over the single-request threshold (8 MiB): two tus chunks of 16 and 8 MiB. */
const FILE_BYTES = 24 * 1024 * 1024;
/** Slow enough that "halfway" lasts seconds; the wait is on the shown percent, never on time. */
const UPLOAD_BYTES_PER_SECOND = 3 * 1024 * 1024;

const panel = (page: Page) => page.getByRole('region', { name: 'Uploads' });
const row = (page: Page, name: string) => panel(page).getByRole('listitem', { name });
/** The row's detail line while it travels: '24 MB · 41% · …'. */
const percentBetween = (page: Page, name: string, low: number, high: number) =>
  row(page, name)
    .getByText(new RegExp(`· (${Array.from({ length: high - low + 1 }, (_, i) => low + i).join('|')})%`))
    .first();

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function signedIn() {
  const account = await createUser(session.server);
  const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });
  return { account, page, context };
}

/** A file of random bytes written to disk: the browser reads it from there, as a user's would be. */
async function fileOnDisk(name: string): Promise<{ file: string; bytes: Buffer }> {
  const bytes = randomContent(FILE_BYTES);
  const file = path.join(session.workDir, name);
  await writeFile(file, bytes);
  return { file, bytes };
}

/** Chromium's own upload throttle (DevTools): the upload moves at a pace the test can watch. */
async function throttle(context: BrowserContext, page: Page, bytesPerSecond: number): Promise<CDPSession> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
  return cdp;
}

async function unthrottle(cdp: CDPSession): Promise<void> {
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
}

async function startUpload(page: Page, file: string): Promise<void> {
  await page.goto('/dashboard');
  await page.getByText('Your cloud is empty').waitFor();
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await page.getByRole('dialog', { name: 'Upload Files' }).getByLabel('Upload files', { exact: true }).setInputFiles(file);
}

async function storageUsed(token: string): Promise<number> {
  return (await callApi<{ storageInfo: { storageUsed: number } }>(session.server, token, 'GET', '/user/dashboard')).storageInfo.storageUsed;
}

/** Waits until the account's storage figure is `expected` (a reservation is given back by the server's request). */
async function storageBecomes(token: string, expected: number): Promise<void> {
  for (let waited = 0; (await storageUsed(token)) !== expected; waited += 100) {
    if (waited > 10_000) throw new Error(`storage stayed at ${await storageUsed(token)}, expected ${expected}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The one stored file's bytes match what was on disk. */
async function expectStored(token: string, name: string, bytes: Buffer): Promise<void> {
  const stored = await listFiles(session.server, token);
  expect(stored.map((file) => file.originalName)).toEqual([name]);
  const downloaded = await downloadFile(session.server, token, stored[0]!.id);
  expect(downloaded.status).toBe(200);
  expect(sha256(downloaded.bytes)).toBe(sha256(bytes));
}

describe('resumable uploads in the browser', () => {
  it('pauses while the browser is offline halfway, then carries on and completes with the same bytes', async () => {
    const { account, page, context } = await signedIn();
    const { file, bytes } = await fileOnDisk('offline.bin');
    const cdp = await throttle(context, page, UPLOAD_BYTES_PER_SECOND);
    await startUpload(page, file);

    await percentBetween(page, 'offline.bin', 25, 60).waitFor({ timeout: 20_000 });
    await context.setOffline(true);
    await row(page, 'offline.bin').getByText('Paused — reconnecting…').waitFor();
    expect(await row(page, 'offline.bin').getByText('Upload complete').count()).toBe(0);

    await context.setOffline(false);
    await unthrottle(cdp);
    await row(page, 'offline.bin').getByText('Paused — reconnecting…').waitFor({ state: 'detached', timeout: 20_000 });
    await row(page, 'offline.bin').getByText('Upload complete').waitFor({ timeout: 30_000 });
    await tile(page, 'offline.bin').waitFor();
    await expectStored(account.token, 'offline.bin', bytes);
    await context.close();
  });

  it('pauses and resumes from the panel and completes with the same bytes', async () => {
    const { account, page, context } = await signedIn();
    const { file, bytes } = await fileOnDisk('paused.bin');
    const cdp = await throttle(context, page, UPLOAD_BYTES_PER_SECOND);
    await startUpload(page, file);

    // docs/product.md#uploads: size, percent, speed and time left, as for any upload.
    await row(page, 'paused.bin')
      .getByText(/^24 MB · \d+% · [\d.]+ (KB|MB)\/s · \d+ (seconds?|minutes?) left$/)
      .waitFor({ timeout: 20_000 });
    await percentBetween(page, 'paused.bin', 20, 60).waitFor({ timeout: 20_000 });
    await row(page, 'paused.bin').getByRole('button', { name: 'Pause upload' }).click();
    await row(page, 'paused.bin').getByText('Paused', { exact: true }).waitFor();
    const resume = row(page, 'paused.bin').getByRole('button', { name: 'Resume upload' });
    await unthrottle(cdp);
    // From the keyboard, as the panel promises.
    await resume.focus();
    await page.keyboard.press('Enter');
    await row(page, 'paused.bin').getByText('Upload complete').waitFor({ timeout: 30_000 });
    await expectStored(account.token, 'paused.bin', bytes);
    await context.close();
  });

  it('cancels an upload on the server: the reserved space is freed at once', async () => {
    const { account, page, context } = await signedIn();
    const { file } = await fileOnDisk('cancelled.bin');
    const before = await storageUsed(account.token);
    await throttle(context, page, UPLOAD_BYTES_PER_SECOND);
    await startUpload(page, file);

    await percentBetween(page, 'cancelled.bin', 10, 60).waitFor({ timeout: 20_000 });
    // Reserved at creation (docs/api.md#resumable-uploads).
    expect(await storageUsed(account.token)).toBe(before + FILE_BYTES);
    await row(page, 'cancelled.bin').getByRole('button', { name: 'Cancel upload' }).click();
    await row(page, 'cancelled.bin').waitFor({ state: 'detached' });
    await storageBecomes(account.token, before);
    expect(await listFiles(session.server, account.token)).toEqual([]);
    await context.close();
  });

  it('after a reload mid-upload, asks for the file again and resumes from the server’s offset', async () => {
    const { account, page, context } = await signedIn();
    const { file, bytes } = await fileOnDisk('reloaded.bin');
    const before = await storageUsed(account.token);
    const cdp = await throttle(context, page, UPLOAD_BYTES_PER_SECOND);
    await startUpload(page, file);

    // Past the first 16 MiB chunk, which the server holds whether or not it keeps a cut-off PATCH's bytes.
    await percentBetween(page, 'reloaded.bin', 70, 90).waitFor({ timeout: 20_000 });
    await page.reload();
    await unthrottle(cdp);
    await row(page, 'reloaded.bin')
      .getByText(/Interrupted — pick the file again to resume/)
      .waitFor();

    // The server kept what arrived before the reload.
    const uploadUrl = await page.evaluate(() => {
      for (let index = 0; index < localStorage.length; index += 1) {
        const key = localStorage.key(index) ?? '';
        if (key.startsWith('cloudvault.upload::'))
          return (JSON.parse(localStorage.getItem(key) ?? '{}') as { uploadUrl: string }).uploadUrl;
      }
      return null;
    });
    expect(uploadUrl).toBeTruthy();
    const head = await fetch(uploadUrl!, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${account.token}`, 'tus-resumable': '1.0.0' },
    });
    expect(head.status).toBe(200);
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThan(FILE_BYTES);

    const chooser = page.waitForEvent('filechooser');
    await row(page, 'reloaded.bin').getByRole('button', { name: 'Pick reloaded.bin again to resume' }).click();
    await (await chooser).setFiles(file);
    await row(page, 'reloaded.bin').getByText('Upload complete').waitFor({ timeout: 30_000 });
    await expectStored(account.token, 'reloaded.bin', bytes);
    // The same upload went on: no second reservation is left behind.
    expect(await storageUsed(account.token)).toBe(before + FILE_BYTES);
    expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('cloudvault.upload::')))).toEqual([]);
    await context.close();
  });
});
