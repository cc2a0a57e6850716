import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFile, createFolder, uploadFile } from '@cloudvault/test-support/drive';
import { callApi, request } from '@cloudvault/test-support/running-server';
import type { ShareLinkResponse } from '@cloudvault/contract/shares';
import { violationsOf } from './helpers/axe.ts';
import { openPage } from './helpers/browser.ts';
import { downloadedBytes, randomContent } from './helpers/drive.ts';
import { makePicture, requireFfmpeg } from './helpers/media-files.ts';
import { useE2eSession } from './helpers/session.ts';

// Links with limits (issue 38): a download limit after which the link answers 410 and its
// page says so, and a view-only link that shows its files but offers no download anywhere.

const session = useE2eSession('link-limits');
const shots = fileURLToPath(new URL('../.test-artifacts/screenshots/link-limits', import.meta.url));

/** Saved for a person to look at (.test-artifacts/screenshots/link-limits). */
async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
}

const PHONE = { width: 390, height: 844 };
const NOTE = 'Downloads are turned off for this link. Anyone who can see it can still take a screenshot.';

/** The visitor's address of a link made through the API. */
const pathOf = (link: ShareLinkResponse) => new URL(link.shareUrl).pathname;
const tokenOf = (link: ShareLinkResponse) => pathOf(link).split('/').pop() ?? '';

async function downloadOnce(page: Page): Promise<Buffer> {
  const [started] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download' }).click()]);
  return downloadedBytes(started);
}

describe('a link with a download limit', () => {
  it('gives its file twice, then says it has reached its download limit, and so does every later visit', async () => {
    const owner = await createUser(session.server, { firstName: 'Ada' });
    const bytes = randomContent(200_000);
    const file = await createFile(session.server, owner.token, bytes, { name: 'minutes.bin' });
    const link = await callApi<ShareLinkResponse>(session.server, owner.token, 'POST', `/files/${file.id}/share`, {
      shareType: 'public',
      downloadLimit: 2,
    });

    const { page, context } = await openPage(session.browser, session.server.url);
    await page.goto(pathOf(link));
    await page.getByRole('heading', { level: 1, name: 'minutes.bin' }).waitFor();
    expect((await downloadOnce(page)).equals(bytes)).toBe(true);
    expect((await downloadOnce(page)).equals(bytes)).toBe(true);

    // The second download used the last one: the page says so without a reload.
    const limitTitle = page.getByRole('heading', { level: 1, name: 'This link has reached its download limit' });
    await limitTitle.waitFor({ timeout: 10_000 });
    expect(await page.getByRole('link', { name: 'Download' }).count()).toBe(0);

    // A third visit, and a third download asked for without the page: 410.
    await page.reload();
    await limitTitle.waitFor();
    await page.getByText('Ask the person who shared it for a new link.').waitFor();
    const third = await request<{ code: string }>(session.server, 'GET', `/api/public/shares/${tokenOf(link)}/download`);
    expect(third.status).toBe(410);
    expect(third.body.code).toBe('DOWNLOAD_LIMIT_REACHED');
    expect(await violationsOf(page, { label: 'download limit reached' })).toEqual([]);
    await screenshot(page, 'limit-reached');
    await context.close();
  });
});

describe('a view-only link', () => {
  it('at phone size, shows its picture from the display route, with the note and no download control anywhere', async () => {
    requireFfmpeg();
    const owner = await createUser(session.server, { firstName: 'Grace' });
    const folder = await createFolder(session.server, owner.token, 'Moodboard');
    const picture = makePicture(session.workDir, 'sunset.png', '800x600');
    await uploadFile(session.server, owner.token, { path: picture }, { name: 'sunset.png', type: 'image/png', folderId: folder.id });
    await createFile(session.server, owner.token, 'ideas', { name: 'ideas.txt', type: 'text/plain', folderId: folder.id });
    const link = await callApi<ShareLinkResponse>(session.server, owner.token, 'POST', `/user/folders/${folder.id}/share`, {
      shareType: 'public',
      role: 'view-only',
    });

    const { page, context } = await openPage(session.browser, session.server.url, { viewport: PHONE, mobile: true });
    await page.goto(pathOf(link));
    await page.getByRole('heading', { level: 1, name: 'Moodboard' }).waitFor();
    await page.getByText(NOTE).waitFor();
    const list = page.getByRole('list', { name: 'Folder contents' });
    await list.getByRole('listitem', { name: 'sunset.png' }).waitFor();
    await list.getByRole('listitem', { name: 'ideas.txt' }).waitFor();
    // No download per file, no zip of the whole folder.
    expect(await page.getByRole('link', { name: /Download/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Download/ }).count()).toBe(0);
    expect(await violationsOf(page, { label: 'view-only folder (phone)' })).toEqual([]);
    await screenshot(page, 'view-only-phone');

    await list.getByRole('button', { name: 'View sunset.png' }).click();
    const viewer = page.getByRole('dialog', { name: 'Viewer: sunset.png' });
    await viewer.waitFor();
    // The picture itself, drawn from the display route (not a thumbnail, not a download).
    await page.waitForFunction(() => {
      const image = Array.from(document.querySelectorAll<HTMLImageElement>('[role="dialog"] img[alt="sunset.png"]')).find((img) =>
        img.src.includes('/view'),
      );
      return image !== undefined && image.complete && image.naturalWidth === 800;
    });
    expect(await viewer.getByRole('button', { name: 'Download' }).count()).toBe(0);
    await screenshot(page, 'view-only-viewer-phone');

    // The server refuses the download routes of the link outright.
    const token = tokenOf(link);
    const zip = await request<{ code: string }>(session.server, 'GET', `/api/public/shares/${token}/download`);
    expect(zip.status).toBe(403);
    expect(zip.body.code).toBe('DOWNLOAD_NOT_ALLOWED');
    await context.close();
  });

  it('of a single file, opens it in the viewer for reading with the note and without Download', async () => {
    const owner = await createUser(session.server, { firstName: 'Grace' });
    const file = await createFile(session.server, owner.token, 'Chapter one.\nIt was a bright cold day.\n', {
      name: 'draft.txt',
      type: 'text/plain',
    });
    const link = await callApi<ShareLinkResponse>(session.server, owner.token, 'POST', `/files/${file.id}/share`, {
      shareType: 'public',
      role: 'view-only',
    });

    const { page, context } = await openPage(session.browser, session.server.url);
    await page.goto(pathOf(link));
    await page.getByRole('heading', { level: 1, name: 'draft.txt' }).waitFor();
    await page.getByText(NOTE).waitFor();
    expect(await page.getByRole('link', { name: 'Download' }).count()).toBe(0);
    await page.getByRole('button', { name: 'View' }).click();
    const viewer = page.getByRole('dialog', { name: 'Viewer: draft.txt' });
    await viewer.getByText('It was a bright cold day.').waitFor();
    expect(await viewer.getByRole('button', { name: 'Download' }).count()).toBe(0);
    const refused = await request<{ code: string }>(session.server, 'GET', `/api/public/shares/${tokenOf(link)}/download`);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('DOWNLOAD_NOT_ALLOWED');
    await context.close();
  });
});
