import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFolder, downloadFile, listFiles } from '@cloudvault/test-support/drive';
import { halves } from '../apps/server/test/helpers/image-fixtures.ts';
import { violationsInEachTheme } from './helpers/axe.ts';
import { randomContent } from './helpers/drive.ts';
import { startAppServer, type AppServer } from './helpers/app-server.ts';
import { launchPhoneWithProfile } from './helpers/installed-app.ts';

// Sharing into CloudVault from a phone's share sheet (the manifest's share target): the share
// sheet posts a multipart form to /share-target; the service worker keeps the files on the
// device and opens /share, where the user picks a folder and uploads them. Without a service
// worker the server answers the post, and the page says nothing arrived. One phone, one
// persistent profile (Chromium installs no service worker in an incognito one).

let workDir: string;
let server: AppServer;
let context: BrowserContext;
let page: Page;
let token: string;
let email: string;
let password: string;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Submits the form a share sheet sends, from the page open now (its origin): a navigation
 * that posts `files` and `fields` as multipart form data to /share-target, like Android's Chrome does.
 */
async function share(files: string[], arrivesAt: RegExp, fields: Record<string, string> = { title: 'From the gallery' }): Promise<void> {
  await page.setContent('<form method="post" enctype="multipart/form-data" action="/share-target"></form>');
  await page.locator('form').evaluate((form: HTMLFormElement, values) => {
    for (const [name, value] of Object.entries(values)) form.append(Object.assign(document.createElement('input'), { name, value }));
    form.append(Object.assign(document.createElement('input'), { type: 'file', name: 'files', multiple: true }));
  }, fields);
  await page.locator('input[type="file"]').setInputFiles(files);
  await Promise.all([page.waitForURL(arrivesAt), page.locator('form').evaluate((form: HTMLFormElement) => form.submit())]);
}

const sharedInCount = () => page.evaluate(async () => (await (await caches.open('cloudvault-shared-in')).keys()).length);

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-e2e-share-target-'));
  server = await startAppServer();
  ({ token, email, password } = await createUser(server));
  ({ context, page } = await launchPhoneWithProfile(workDir, server.url));
});
afterAll(async () => {
  await Promise.all([context?.close(), server?.stop()]);
  await rm(workDir, { recursive: true, force: true });
});

describe('sharing files into CloudVault from a phone', () => {
  it('names the share target in the manifest', async () => {
    const manifest = (await (await fetch(`${server.url}/manifest.webmanifest`)).json()) as {
      share_target: { action: string; method: string; enctype: string; params: { files: { name: string; accept: string[] }[] } };
    };
    expect(manifest.share_target).toMatchObject({ action: '/share-target', method: 'POST', enctype: 'multipart/form-data' });
    expect(manifest.share_target.params.files[0]).toMatchObject({ name: 'files', accept: expect.arrayContaining(['*/*']) });
  });

  it('says nothing arrived when the server answered the share (no service worker yet)', async () => {
    // A page of the origin that registers no service worker: the post goes to the server.
    await page.goto('/robots.txt');
    await page.evaluate((value) => localStorage.setItem('token', value), token);
    await writeFile(path.join(workDir, 'a.txt'), 'first');
    await writeFile(path.join(workDir, 'b.txt'), 'second');
    await share([path.join(workDir, 'a.txt'), path.join(workDir, 'b.txt')], /\/share$/);
    await page.getByRole('heading', { name: 'Nothing was received' }).waitFor();
    await page.getByRole('link', { name: 'Go to My Files' }).waitFor();
  });

  it('keeps two shared files on the device, then uploads them into the folder picked, byte for byte', async () => {
    const folder = await createFolder(server, token, 'Phone photos');
    const photo = await halves('png');
    // Over 8 MiB: it travels over tus, resumably, as any large upload of the app.
    const video = randomContent(9 * 1024 * 1024);
    await writeFile(path.join(workDir, 'photo.png'), photo);
    await writeFile(path.join(workDir, 'clip.bin'), video);

    // The /share page opened above registered the service worker; it controls the pages opened since.
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: unknown[] };
    expect(installabilityErrors).toEqual([]);

    await share([path.join(workDir, 'photo.png'), path.join(workDir, 'clip.bin')], /\/share\?batch=\d{13}-[0-9a-f-]{36}$/);
    const list = page.getByRole('list', { name: 'Files received' });
    await list.getByText('photo.png').waitFor();
    await list.getByText('clip.bin').waitFor();
    await list.getByText('9 MB', { exact: true }).waitFor();
    // The image's thumbnail is drawn from the device's copy.
    await page.waitForFunction(() =>
      Array.from(document.images).some((image) => image.src.startsWith('blob:') && image.naturalWidth === 400),
    );
    expect(await violationsInEachTheme(page)).toEqual([]);

    await page.getByRole('button', { name: 'Change folder' }).click();
    const chooser = page.getByRole('dialog', { name: 'Choose a folder' });
    await chooser.getByRole('button', { name: 'Open Phone photos' }).click();
    await chooser.getByText('My Files / Phone photos').waitFor();
    await chooser.getByRole('button', { name: 'Choose this folder' }).click();
    await chooser.waitFor({ state: 'detached' });
    await page.getByText('Phone photos', { exact: true }).waitFor();

    const panel = page.getByRole('region', { name: 'Uploads' });
    // Watched from the start: a completed row leaves after 3 s.
    const eachCompleted = Promise.all(
      ['photo.png', 'clip.bin'].map((name) =>
        panel.getByRole('listitem', { name }).getByText('Upload complete').waitFor({ timeout: 30_000 }),
      ),
    );
    await page.getByRole('button', { name: 'Upload 2 files' }).click();
    await page.waitForURL(`**/dashboard?folder=${folder.id}`);
    await panel.getByRole('heading', { name: 'Uploading 2 file(s)' }).waitFor();
    await eachCompleted;

    const stored = await listFiles(server, token, folder.id);
    expect(stored.map((file) => file.originalName).sort()).toEqual(['clip.bin', 'photo.png']);
    const want: Record<string, Buffer> = { 'photo.png': photo, 'clip.bin': video };
    for (const file of stored) {
      const { bytes } = await downloadFile(server, token, file.id);
      expect(sha256(bytes), file.originalName).toBe(sha256(want[file.originalName]!));
    }
    // The device's copy went once the uploads were queued.
    expect(await sharedInCount()).toBe(0);
  });

  it('keeps a shared link as a note, and drops it on Cancel', async () => {
    await share([], /\/share\?batch=/, { title: 'Recipe: pancakes', text: 'Worth a try', url: 'https://example.com/pancakes' });
    await page.getByRole('list', { name: 'Files received' }).getByText('Recipe: pancakes.txt').waitFor();
    expect(await sharedInCount()).toBe(1);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL('**/dashboard');
    expect(await sharedInCount()).toBe(0);
    expect(await listFiles(server, token)).toEqual([]);
  });

  it('opens the files shared before signing in once the user has signed in', async () => {
    await page.evaluate(() => localStorage.removeItem('token'));
    await writeFile(path.join(workDir, 'receipt.txt'), 'paid');
    await share([path.join(workDir, 'receipt.txt')], /\/login$/);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/share\?batch=/);
    await page.getByRole('list', { name: 'Files received' }).getByText('receipt.txt').waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL('**/dashboard');
    expect(await sharedInCount()).toBe(0);
  });
});
