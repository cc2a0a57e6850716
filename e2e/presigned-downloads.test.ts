import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { callApi } from '@cloudvault/test-support/running-server';
import { createFile } from '@cloudvault/test-support/drive';
import { s3StorageEnv, startS3rver, type TestS3Server } from '../apps/server/test/helpers/s3rver.ts';
import { startAppServer, type AppServer } from './helpers/app-server.ts';
import { launchBrowser, openPage } from './helpers/browser.ts';
import { downloadedBytes, randomContent, tile } from './helpers/drive.ts';

// The server process on an s3rver with S3_PRESIGNED_DOWNLOADS: the browser's native
// downloads follow the 302 into the bucket (docs/decisions/0022).
let s3: TestS3Server;
let server: AppServer;
let browser: Browser;

beforeAll(async () => {
  s3 = await startS3rver();
  server = await startAppServer({ ...s3StorageEnv(s3), S3_PRESIGNED_DOWNLOADS: 'true' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await s3?.stop();
});

describe('downloads straight from S3', () => {
  it('saves a file from the dashboard through the signed link and the redirect into the bucket', async () => {
    const account = await createUser(server);
    const bytes = randomContent(300_000);
    await createFile(server, account.token, bytes, { name: 'Übersicht 2026.pdf', type: 'application/pdf' });
    const { page, context } = await openPage(browser, server.url, { token: account.token });
    await page.goto('/dashboard');
    await tile(page, 'Übersicht 2026.pdf').hover();
    const download = page.waitForEvent('download');
    await tile(page, 'Übersicht 2026.pdf').getByRole('button', { name: 'Download', exact: true }).click();
    const saved = await download;
    expect(new URL(saved.url()).origin).toBe(new URL(s3.endpoint).origin);
    // The name comes from the bucket's answer: the filename* override went through.
    expect(saved.suggestedFilename()).toBe('Übersicht 2026.pdf');
    expect((await downloadedBytes(saved)).equals(bytes)).toBe(true);
    await page.getByText('Download started').first().waitFor();
    await context.close();
  });

  it('saves a shared file from the public share page', async () => {
    const owner = await createUser(server);
    const bytes = randomContent(120_000);
    const file = await createFile(server, owner.token, bytes, { name: 'notes.txt', type: 'text/plain' });
    const { shareUrl } = await callApi<{ shareUrl: string }>(server, owner.token, 'POST', `/files/${file.id}/share`, {});
    const { page, context } = await openPage(browser, server.url);
    await page.goto(new URL(shareUrl).pathname);
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download' }).click();
    const saved = await download;
    expect(new URL(saved.url()).origin).toBe(new URL(s3.endpoint).origin);
    expect(saved.suggestedFilename()).toBe('notes.txt');
    expect((await downloadedBytes(saved)).equals(bytes)).toBe(true);
    await context.close();
  });
  it('shows a file in the viewer from our origin, since the page may not load from the bucket', async () => {
    const account = await createUser(server);
    const text = 'Meeting notes <b>not bold</b>\n';
    const file = await createFile(server, account.token, text, { name: 'notes.txt', type: 'text/plain' });
    const { page, context } = await openPage(browser, server.url, { token: account.token });
    const bucketRequests: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).origin === new URL(s3.endpoint).origin) bucketRequests.push(request.url());
    });
    await page.goto(`/dashboard?view=${file.id}`);
    const shown = page.getByRole('dialog', { name: 'Viewer: notes.txt' }).getByTestId('text-content');
    await shown.waitFor();
    expect(await shown.innerText()).toContain('Meeting notes <b>not bold</b>');
    expect(bucketRequests).toEqual([]);
    await context.close();
  });
});
