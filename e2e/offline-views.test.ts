import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFile, createFolder, downloadFile, listFiles, uploadFile } from '@cloudvault/test-support/drive';
import { violationsInEachTheme } from './helpers/axe.ts';
import { tile } from './helpers/drive.ts';
import { makePicture } from './helpers/media-files.ts';
import { startAppServer, type AppServer } from './helpers/app-server.ts';
import { launchPhoneWithProfile, openControlled } from './helpers/installed-app.ts';

// The installed app without a network (docs/decisions/0066-offline-and-sharing-in.md), on a
// phone: the views the user opened lately come back from the device, marked offline and with
// the thumbnails seen; an upload started offline waits and finishes once the network returns;
// signing out leaves nothing of the account on the device. One user, one page through them
// all, in a persistent profile (an incognito one installs no service worker).

let workDir: string;
let server: AppServer;
let context: BrowserContext;
let page: Page;
let token: string;

const offlineNotice = () => page.getByRole('status').filter({ hasText: "You're offline." });
const panel = () => page.getByRole('region', { name: 'Uploads' });

/** Whether every named tile shows a decoded thumbnail. */
const thumbnailShown = (name: string) =>
  page.waitForFunction((wanted) => {
    const cell = Array.from(document.querySelectorAll('[role="gridcell"]')).find(
      (candidate) => candidate.querySelector('p')?.textContent === wanted,
    );
    const image = cell?.querySelector<HTMLImageElement>('img[data-thumbnail]');
    return !!image && image.complete && image.naturalWidth > 0;
  }, name);

async function thumbnailMade(id: string): Promise<void> {
  for (;;) {
    const answer = await fetch(`${server.url}/api/files/${id}/thumbnail?size=small`, { headers: { authorization: `Bearer ${token}` } });
    await answer.arrayBuffer();
    if (answer.status === 200) return;
    if (answer.status !== 404) throw new Error(`thumbnail: ${answer.status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-e2e-offline-'));
  server = await startAppServer();
  ({ context, page } = await launchPhoneWithProfile(workDir, server.url));
  ({ token } = await createUser(server, { firstName: 'Olive' }));
});
afterAll(async () => {
  await Promise.all([context?.close(), server?.stop()]);
  await rm(workDir, { recursive: true, force: true });
});

describe('the app without a network', () => {
  it('shows the folders, Recent and Starred opened lately from the device, marked offline, with their thumbnails', async () => {
    const trips = await createFolder(server, token, 'Trips');
    const receipts = await createFolder(server, token, 'Receipts');
    await createFile(server, token, 'pack the tent', { name: 'packing.txt', type: 'text/plain', folderId: trips.id });
    const picture = makePicture(workDir, 'harbour.png', '640x480');
    const { body } = await uploadFile(server, token, { path: picture }, { name: 'harbour.png', type: 'image/png' });
    await thumbnailMade(body.file.id);
    const starred = await fetch(`${server.url}/api/starred/folder/${trips.id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(starred.status).toBe(204);

    // Signed in, with the service worker controlling the page.
    await page.goto('/login');
    await page.evaluate((value) => localStorage.setItem('token', value), token);
    await openControlled(page, '/dashboard');
    // The views, opened once with the network.
    await thumbnailShown('harbour.png');
    await page.goto(`/dashboard?folder=${trips.id}`);
    await tile(page, 'packing.txt').waitFor();
    for (const view of ['recent', 'starred']) {
      await page.goto(`/${view}`);
      await page.getByRole('listitem', { name: view === 'recent' ? 'harbour.png' : 'Trips', exact: true }).waitFor();
    }
    expect(await offlineNotice().count()).toBe(0);

    await context.setOffline(true);
    // Made while the phone is offline: only the device's copy can leave it out.
    await createFile(server, token, 'made elsewhere', { name: 'later.txt', type: 'text/plain' });

    await page.goto('/dashboard');
    await offlineNotice().waitFor();
    await thumbnailShown('harbour.png');
    await tile(page, 'Trips').waitFor();
    expect(await tile(page, 'later.txt').count()).toBe(0);
    expect(await violationsInEachTheme(page)).toEqual([]);

    await tile(page, 'Trips').dblclick();
    await tile(page, 'packing.txt').waitFor();

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menu', { name: 'Account menu' }).getByRole('menuitem', { name: 'Recent' }).click();
    await page.getByRole('heading', { level: 1, name: 'Recent' }).waitFor();
    await page.getByRole('listitem', { name: 'harbour.png', exact: true }).waitFor();
    await offlineNotice().waitFor();

    await page.goto('/starred');
    await page.getByRole('listitem', { name: 'Trips', exact: true }).waitFor();
    await offlineNotice().waitFor();

    // A folder never opened on this phone says so, rather than loading forever.
    await page.goto(`/dashboard?folder=${receipts.id}`);
    await page.getByRole('heading', { name: 'Not saved on this device' }).waitFor();
  });

  it('starts an upload chosen offline by itself when the network returns, also after the app was reopened', async () => {
    const queued = path.join(workDir, 'queued.txt');
    await writeFile(queued, 'written on the train\n');
    await page.goto('/dashboard');
    await offlineNotice().waitFor();

    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('dialog', { name: 'Upload Files' }).getByLabel('Upload files', { exact: true }).setInputFiles(queued);
    const row = panel().getByRole('listitem', { name: 'queued.txt' });
    await row.getByText(/reconnecting/).waitFor();
    // The app closed and opened again before the network returned: the file waits still.
    await expect.poll(() => page.evaluate(async () => (await (await caches.open('cloudvault-waiting-uploads')).keys()).length)).toBe(1);
    await page.reload();
    await row.getByText(/reconnecting/).waitFor();

    const finished = row.getByText('Upload complete').waitFor();
    await context.setOffline(false);
    await finished;
    await offlineNotice().waitFor({ state: 'detached' });
    // Sent once, and no longer kept on the device.
    const sent = (await listFiles(server, token)).filter(({ originalName }) => originalName.startsWith('queued'));
    expect(sent.map(({ originalName }) => originalName)).toEqual(['queued.txt']);
    const stored = sent[0];
    await expect.poll(() => page.evaluate(async () => (await (await caches.open('cloudvault-waiting-uploads')).keys()).length)).toBe(0);
    expect((await downloadFile(server, token, stored!.id)).bytes.toString()).toBe('written on the train\n');
  });

  it('keeps nothing of the account on the device after sign-out', async () => {
    await page.goto('/dashboard');
    await thumbnailShown('harbour.png');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(`${server.url}/`);
    await expect.poll(() => page.evaluate(async () => (await caches.keys()).filter((name) => name.startsWith('cloudvault-')))).toEqual([]);

    await context.setOffline(true);
    try {
      await page.goto('/dashboard');
      await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
      expect(await page.getByText('harbour.png').count()).toBe(0);
    } finally {
      await context.setOffline(false);
    }
  });
});
