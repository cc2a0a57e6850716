import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFile, createFolder, downloadFile, listFiles } from '@cloudvault/test-support/drive';
import { useE2eSession } from './helpers/session.ts';
import { openPage } from './helpers/browser.ts';
import { startAppServer } from './helpers/app-server.ts';
import { downloadedBytes, dropFiles, randomContent, readZip, sparseFile, tile } from './helpers/drive.ts';

const session = useE2eSession('files');

const panel = (page: Page) => page.getByRole('region', { name: 'Uploads' });

async function signedIn() {
  const account = await createUser(session.server);
  const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });
  return { account, page, context };
}

async function fileOnDisk(name: string, content: Buffer | string): Promise<string> {
  const file = path.join(session.workDir, name);
  await writeFile(file, content);
  return file;
}

describe('uploads', () => {
  it('uploads several files through the file chooser, with progress and the summary toast', async () => {
    const { account, page, context } = await signedIn();
    const contents = {
      'photo.jpg': randomContent(300_000),
      'notes.txt': Buffer.from('first line\nsecond line\n'),
      'report.pdf': randomContent(50_000),
    };
    const files = await Promise.all(Object.entries(contents).map(([name, bytes]) => fileOnDisk(name, bytes)));
    await page.goto('/dashboard');
    await page.getByText('Your cloud is empty').waitFor();

    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload Files' });
    const zone = dialog.getByRole('button', { name: 'Upload files' });
    await zone.getByText('Drag and drop files here, or click to browse').waitFor();
    await zone.getByText('Multiple files').waitFor();
    await zone.getByText('Up to 102.4 MB per file').waitFor();
    // Free: no plan badge.
    expect(await zone.getByText('Free plan').count()).toBe(0);

    const chooser = page.waitForEvent('filechooser');
    await zone.click();
    await (await chooser).setFiles(files);
    // Each row says so when its file is done; watched from the start, since a completed row
    // leaves after 3 s, which on a busy machine can come before the last file is done.
    const eachCompleted = Promise.all(
      Object.keys(contents).map((name) => panel(page).getByRole('listitem', { name }).getByText('Upload complete').waitFor()),
    );
    await dialog.waitFor({ state: 'detached' });

    await panel(page).getByRole('heading', { name: 'Uploading 3 file(s)' }).waitFor();
    await page.getByText('3 files uploaded successfully!').first().waitFor();
    await eachCompleted;
    await panel(page).getByText('100% overall').waitFor();
    for (const name of Object.keys(contents)) await tile(page, name).waitFor();
    await page.getByText('3 items').waitFor();

    // Completed rows leave after 3 s; with them the panel.
    await panel(page).waitFor({ state: 'detached', timeout: 6000 });

    const stored = await listFiles(session.server, account.token);
    for (const file of stored) {
      expect(
        (await downloadFile(session.server, account.token, file.id)).bytes.equals(contents[file.originalName as keyof typeof contents]),
      ).toBe(true);
    }
    await context.close();
  });

  it('shows each upload with size, percent, speed and time left, and cancels one', async () => {
    const { account, page, context } = await signedIn();
    const slow = await fileOnDisk('slow.bin', randomContent(3 * 1024 * 1024));
    const other = await fileOnDisk('other.bin', randomContent(3 * 1024 * 1024));
    await page.goto('/dashboard');
    await page.getByText('Your cloud is empty').waitFor();
    // 1 MB/s up: slow enough to watch.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 1024 * 1024,
    });

    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('dialog', { name: 'Upload Files' }).getByLabel('Upload files', { exact: true }).setInputFiles([slow, other]);

    const slowRow = panel(page).getByRole('listitem', { name: 'slow.bin' });
    await slowRow.getByText(/^3 MB · \d+% · [\d.]+ (KB|MB)\/s · \d+ seconds? left$/).waitFor({ timeout: 8000 });
    await panel(page)
      .getByText(/^\d+% overall$/)
      .waitFor();

    // Cancel the other one: its row goes and it never reaches the session.server.
    await panel(page).getByRole('listitem', { name: 'other.bin' }).getByRole('button', { name: 'Cancel upload' }).click();
    await panel(page).getByRole('listitem', { name: 'other.bin' }).waitFor({ state: 'detached' });
    await page.getByText('1 file uploaded successfully!').first().waitFor({ timeout: 20_000 });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    expect((await listFiles(session.server, account.token)).map((file) => file.originalName)).toEqual(['slow.bin']);
    await context.close();
  });

  it('uploads files dropped anywhere on the page into the open folder', async () => {
    const { account, page, context } = await signedIn();
    const inbox = await createFolder(session.server, account.token, 'Inbox');
    await page.goto(`/dashboard?folder=${inbox.id}`);
    await page.getByText('This folder is empty').waitFor();

    await dropFiles(
      page,
      [
        { name: 'dropped-1.txt', content: 'one' },
        { name: 'dropped-2.csv', content: 'a,b\n1,2\n', type: 'text/csv' },
      ],
      async () => {
        await page.getByText('Drop files to upload').waitFor();
        await page.getByText('Files and folders go into Inbox').waitFor();
      },
    );
    await page.getByText('Drop files to upload').waitFor({ state: 'detached' });
    await page.getByText('2 files uploaded successfully!').first().waitFor();
    await tile(page, 'dropped-1.txt').waitFor();
    await tile(page, 'dropped-2.csv').waitFor();
    const stored = await listFiles(session.server, account.token, inbox.id);
    expect(stored.map((file) => file.originalName)).toEqual(['dropped-1.txt', 'dropped-2.csv']);
    expect((await downloadFile(session.server, account.token, stored[1]!.id)).bytes.toString()).toBe('a,b\n1,2\n');
    await context.close();
  });

  it("refuses a file over the plan's limit with the product's text, before sending a byte", async () => {
    const { page, context } = await signedIn();
    const big = path.join(session.workDir, 'big-video.mp4');
    await sparseFile(big, 103 * 1024 * 1024);
    let uploads = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/files/upload')) uploads += 1;
    });
    await page.goto('/dashboard');
    await page.getByText('Your cloud is empty').waitFor();
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('dialog', { name: 'Upload Files' }).getByLabel('Upload files', { exact: true }).setInputFiles(big);
    await page.getByText('big-video.mp4 is too large. Maximum file size for Free plan is 102.4 MB.').first().waitFor();
    expect(uploads).toBe(0);
    await context.close();
  });

  it("shows the server's quota refusal of a large upload, not a network error", async () => {
    // Only the server knows the storage left: the page sends the file, and the refusal comes
    // while tens of MB are still on their way (docs/decisions/0018-early-answers.md).
    const plansFile = path.join(session.workDir, 'small-storage-plans.json');
    await writeFile(
      plansFile,
      JSON.stringify([
        {
          id: 'FREE',
          name: 'Free',
          price: 0,
          description: 'small storage',
          features: [],
          popular: false,
          storageLimit: 10 * 1024 * 1024,
          maxFileSize: 100 * 1024 * 1024,
          prioritySupport: false,
          maxConcurrentUploads: 3,
          capabilities: { passwordProtectedLinks: false, maxShareExpiryHours: 24, versioning: false, analytics: false },
        },
      ]),
    );
    const server = await startAppServer({ PLANS_FILE: plansFile });
    try {
      const account = await createUser(server);
      const { page, context } = await openPage(session.browser, server.url, { token: account.token });
      const big = path.join(session.workDir, 'holiday-video.mp4');
      await sparseFile(big, 40 * 1024 * 1024);
      await page.goto('/dashboard');
      await page.getByText('Your cloud is empty').waitFor();
      await page.getByRole('button', { name: 'Upload', exact: true }).click();
      await page.getByRole('dialog', { name: 'Upload Files' }).getByLabel('Upload files', { exact: true }).setInputFiles(big);
      const row = panel(page).getByRole('listitem', { name: 'holiday-video.mp4' });
      await row
        .getByRole('alert')
        .filter({
          hasText:
            'Not enough storage: 10 MB free of your 10 MB, and this upload needs 40 MB. Delete files, empty Trash or upgrade your plan.',
        })
        .waitFor();
      await page.getByText('Failed to upload holiday-video.mp4').first().waitFor();
      expect(await listFiles(server, account.token)).toEqual([]);
      await context.close();
    } finally {
      await server.stop();
    }
  });

  it("shows the server's reason in a failed row, which the user dismisses", async () => {
    const { account, page, context } = await signedIn();
    const doomed = await createFolder(session.server, account.token, 'Doomed');
    await page.goto(`/dashboard?folder=${doomed.id}`);
    await page.getByText('This folder is empty').waitFor();
    // The folder goes to Trash behind the page's back.
    await fetch(`${session.server.url}/api/user/folders/${doomed.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${account.token}` },
    });

    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Upload Files' })
      .getByLabel('Upload files', { exact: true })
      .setInputFiles(await fileOnDisk('orphan.txt', 'orphan'));
    const row = panel(page).getByRole('listitem', { name: 'orphan.txt' });
    await row
      .getByRole('alert')
      .filter({ hasText: /not found/i })
      .waitFor();
    await page.getByText('Failed to upload orphan.txt').first().waitFor();
    await page.getByText('1 file failed to upload').first().waitFor();
    await row.getByRole('button', { name: 'Dismiss' }).click();
    await panel(page).waitFor({ state: 'detached' });
    await context.close();
  });
});

describe('downloads', () => {
  it('downloads a file and a folder as a zip with exactly the bytes that were uploaded', async () => {
    const { account, page, context } = await signedIn();
    const album = await createFolder(session.server, account.token, 'Album');
    const nested = await createFolder(session.server, account.token, 'Nested', album.id);
    await createFolder(session.server, account.token, 'Empty', album.id);
    const cover = randomContent(700_000);
    const track = randomContent(120_000);
    const liner = Buffer.from('Liner notes, ünïcödé included.');
    await createFile(session.server, account.token, cover, { name: 'cover.png', type: 'image/png', folderId: album.id });
    await createFile(session.server, account.token, track, { name: 'track 01.mp3', type: 'audio/mpeg', folderId: nested.id });
    await createFile(session.server, account.token, liner, { name: 'liner.txt', type: 'text/plain' });
    await page.goto('/dashboard');

    await tile(page, 'liner.txt').hover();
    let download = page.waitForEvent('download');
    await tile(page, 'liner.txt').getByRole('button', { name: 'Download', exact: true }).click();
    let saved = await download;
    expect(saved.suggestedFilename()).toBe('liner.txt');
    expect((await downloadedBytes(saved)).equals(liner)).toBe(true);
    await page.getByText('Download started').first().waitFor();

    await tile(page, 'Album').hover();
    download = page.waitForEvent('download');
    await tile(page, 'Album').getByRole('button', { name: 'Download folder' }).click();
    saved = await download;
    expect(saved.suggestedFilename()).toBe('Album.zip');
    await page.getByText('Folder download started').first().waitFor();
    const zipPath = await saved.path();
    const entries = await readZip(zipPath!);
    expect([...entries.keys()].sort()).toEqual(['Empty/', 'Nested/', 'Nested/track 01.mp3', 'cover.png']);
    expect((entries.get('cover.png') as Buffer).equals(cover)).toBe(true);
    expect((entries.get('Nested/track 01.mp3') as Buffer).equals(track)).toBe(true);

    // Into the folder: a file inside downloads the same way.
    await tile(page, 'Album').dblclick();
    await tile(page, 'cover.png').hover();
    download = page.waitForEvent('download');
    await tile(page, 'cover.png').getByRole('button', { name: 'Download', exact: true }).click();
    expect((await downloadedBytes(await download)).equals(cover)).toBe(true);
    await context.close();
  });

  it('downloads through a short-lived signed link, with no service worker, as on a plain-HTTP install', async () => {
    const account = await createUser(session.server);
    const bytes = randomContent(200_000);
    await createFile(session.server, account.token, bytes, { name: 'linked.bin' });
    const context = await session.browser.newContext({
      baseURL: session.server.url,
      viewport: { width: 1280, height: 800 },
      serviceWorkers: 'block',
    });
    await context.addInitScript((token) => window.localStorage.setItem('token', token), account.token);
    const page = await context.newPage();
    await page.goto('/dashboard');
    await tile(page, 'linked.bin').hover();
    const download = page.waitForEvent('download');
    await tile(page, 'linked.bin').getByRole('button', { name: 'Download', exact: true }).click();
    const saved = await download;
    expect(new URL(saved.url()).pathname).toMatch(/^\/api\/downloads\/[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(saved.suggestedFilename()).toBe('linked.bin');
    expect((await downloadedBytes(saved)).equals(bytes)).toBe(true);
    await page.getByText('Download started').first().waitFor();
    await context.close();
  });

  it('says so when a download fails', async () => {
    const { account, page, context } = await signedIn();
    await createFile(session.server, account.token, 'soon gone', { name: 'gone.txt' });
    await page.goto('/dashboard');
    await tile(page, 'gone.txt').waitFor();
    // The network fails as the download starts. (Deleting the file behind the page's back no
    // longer works: the live listing takes its tile away within a second.)
    await page.route('**/api/files/*/download-link', (route) => route.abort('connectionreset'));
    await tile(page, 'gone.txt').hover();
    await tile(page, 'gone.txt').getByRole('button', { name: 'Download', exact: true }).click();
    await page.getByText('Failed to download file').first().waitFor();
    await context.close();
  });
});

describe('sharing (routes of issue 6)', () => {
  it('offers Share for files and the Share Folder dialog with a public or private choice', async () => {
    const { account, page, context } = await signedIn();
    await createFolder(session.server, account.token, 'Team');
    await createFile(session.server, account.token, 'plan', { name: 'plan.txt' });
    await page.goto('/dashboard');

    await tile(page, 'plan.txt').hover();
    await tile(page, 'plan.txt').getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByRole('dialog', { name: 'Share File' }).getByRole('button', { name: 'Share', exact: true }).click();
    // Either answer is the product's text; sharing itself is proven by the share journeys.
    await page
      .getByText(/^(Share link copied!|Failed to create share link)$/)
      .first()
      .waitFor();

    await tile(page, 'Team').hover();
    await tile(page, 'Team').getByRole('button', { name: 'Share folder' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share Folder' });
    await dialog.getByRole('radio', { name: /Anyone with the link/ }).waitFor();
    await dialog.getByRole('radio', { name: /A specific person/ }).check();
    expect(await dialog.getByRole('button', { name: 'Share' }).isDisabled()).toBe(true);
    await dialog.getByLabel('E-mail address', { exact: true }).fill('friend@example.com');
    await dialog.getByLabel('E-mail address', { exact: true }).press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await page
      .getByText(/^(Folder shared with friend@example.com|Failed to share folder)$/)
      .first()
      .waitFor();
    await context.close();
  });
});
