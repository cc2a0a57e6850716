import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { subscribe } from '@cloudvault/test-support/checkout';
import { createFile, createFolder } from '@cloudvault/test-support/drive';
import { callApi } from '@cloudvault/test-support/running-server';
import { openPage } from './helpers/browser.ts';
import { tile, waitForFocusedTile } from './helpers/drive.ts';
import { makePdf, makePicture, makeWebm, pdfCanvasHasInk, requireFfmpeg } from './helpers/media-files.ts';
import { verifyViaOutbox } from './helpers/outbox.ts';
import { useE2eSession } from './helpers/session.ts';

const session = useE2eSession('viewer');
const shots = fileURLToPath(new URL('../.test-artifacts/screenshots/viewer', import.meta.url));

const viewer = (page: Page, name: string) => page.getByRole('dialog', { name: `Viewer: ${name}` });
const focusedLabel = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
/** Saved for a person to look at, once the entrance animations are over. */
async function screenshot(page: Page, name: string): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
  await page.screenshot({ path: path.join(shots, `${name}.png`) });
}

/** The test files, made once per run: pictures, a two-page PDF and a WebM clip from ffmpeg and by hand. */
const made = { photoA: '', photoB: '', pdf: '', webm: '' };
beforeAll(async () => {
  requireFfmpeg();
  await mkdir(shots, { recursive: true });
  made.photoA = makePicture(session.workDir, 'a.png');
  made.photoB = makePicture(session.workDir, 'b.jpg', '1200x1600');
  made.pdf = await makePdf(session.workDir, 'doc.pdf');
  made.webm = makeWebm(session.workDir, 'clip.webm');
});

/** One of every kind, in a folder of its own, named so the grid shows them in this order. */
async function fillFolder(token: string) {
  const folder = await createFolder(session.server, token, 'Everything');
  const put = (content: Parameters<typeof createFile>[2], name: string, type: string) =>
    createFile(session.server, token, content, { name, type, folderId: folder.id });
  const files = {
    photoA: await put({ path: made.photoA }, '1 sunrise.png', 'image/png'),
    photoB: await put({ path: made.photoB }, '2 tower.jpg', 'image/jpeg'),
    pdf: await put({ path: made.pdf }, '3 report.pdf', 'application/pdf'),
    webm: await put({ path: made.webm }, '4 clip.webm', 'video/webm'),
    text: await put('<script>window.__ran = true</script>\nplain <b>text</b>\n', '5 page.html', 'text/html'),
    markdown: await put(
      '# Trip notes\n\n- pack **sunscreen**\n\n<img src=x onerror="window.__ran = true">\n',
      '6 notes.md',
      'text/markdown',
    ),
    zip: await put('PK not really', '7 archive.zip', 'application/zip'),
  };
  return { folderId: folder.id, files };
}

/**
 * Waits until the job runner has made the files' thumbnails (it runs after each upload):
 * the thumbnail route answers 404 until then.
 */
async function thumbnailsMade(token: string, ids: string[]): Promise<void> {
  for (const id of ids) {
    for (;;) {
      const answer = await fetch(`${session.server.url}/api/files/${id}/thumbnail?size=small`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await answer.arrayBuffer();
      if (answer.status === 200) break;
      if (answer.status !== 404) throw new Error(`thumbnail of ${id}: ${answer.status}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** Waits until the job runner has tried the file's thumbnail and failed: the route says none will come. */
async function noThumbnailWillCome(token: string, id: string): Promise<void> {
  for (;;) {
    const answer = await fetch(`${session.server.url}/api/files/${id}/thumbnail?size=small`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await answer.json()) as { code?: string };
    if (body.code === 'NO_THUMBNAIL') return;
    if (body.code !== 'THUMBNAIL_PENDING') throw new Error(`thumbnail of ${id}: ${answer.status} ${body.code}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Whether every thumbnail shown in the grid or list has decoded pixels, for these names. */
const thumbnailsShown = (page: Page, names: string[]) =>
  page.waitForFunction(
    (wanted) =>
      wanted.every((name) => {
        // A cell's first paragraph is the name it shows.
        const cell = Array.from(document.querySelectorAll('[role="gridcell"]')).find(
          (candidate) => candidate.querySelector('p')?.textContent === name,
        );
        const image = cell?.querySelector<HTMLImageElement>('img[data-thumbnail]');
        return !!image && image.complete && image.naturalWidth > 0;
      }),
    names,
  );

/** Whether the image shown in the dialog has decoded pixels. */
const imageDecoded = (page: Page, dialog: string) =>
  page.waitForFunction((name) => {
    const image = document.querySelector<HTMLImageElement>(`[role="dialog"][aria-label="Viewer: ${name}"] img[alt="${name}"]`);
    return !!image && image.complete && image.naturalWidth > 0;
  }, dialog);

describe('the file viewer', () => {
  it('opens a photo, arrows to the next, zooms, closes with Escape onto the tile, and lives in the address', async () => {
    const account = await createUser(session.server);
    const { folderId, files } = await fillFolder(account.token);
    await thumbnailsMade(account.token, [files.photoA.id, files.photoB.id, files.pdf.id, files.webm.id]);
    const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });
    await page.goto(`/dashboard?folder=${folderId}`);
    const pictured = ['1 sunrise.png', '2 tower.jpg', '3 report.pdf', '4 clip.webm'];
    await thumbnailsShown(page, pictured);
    await screenshot(page, 'grid');
    await page.getByRole('button', { name: 'List view' }).click();
    await thumbnailsShown(page, pictured);
    await screenshot(page, 'list');
    await page.getByRole('button', { name: 'Grid view' }).click();
    await tile(page, '1 sunrise.png').dblclick();
    await viewer(page, '1 sunrise.png').waitFor();
    await imageDecoded(page, '1 sunrise.png');
    expect(new URL(page.url()).searchParams.get('view')).toBe(files.photoA.id);
    await screenshot(page, 'image');

    await page.keyboard.press('ArrowRight');
    const tower = viewer(page, '2 tower.jpg');
    await tower.waitFor();
    await tower.getByText('2 of 7').waitFor();
    await imageDecoded(page, '2 tower.jpg');
    await page.waitForURL((url) => url.searchParams.get('view') === files.photoB.id);

    await tower.getByRole('button', { name: 'Zoom in' }).click();
    await tower.getByText('150%').waitFor();
    expect(await tower.getByRole('img', { name: '2 tower.jpg' }).getAttribute('data-zoom')).toBe('1.5');
    await screenshot(page, 'image-zoomed');

    // Focus stays inside while tabbing.
    for (let i = 0; i < 8; i += 1) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await tower.waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.get('view')).toBeNull();
    await waitForFocusedTile(page, '2 tower.jpg');

    // Enter opens; a reload shows the same file; Back closes.
    await page.keyboard.press('Enter');
    await tower.waitFor();
    await page.reload();
    await tower.waitFor();
    await imageDecoded(page, '2 tower.jpg');
    await page.keyboard.press('ArrowLeft');
    await viewer(page, '1 sunrise.png').waitFor();
    await page.goto(`/dashboard?folder=${folderId}&view=${files.pdf.id}`);
    await viewer(page, '3 report.pdf').waitFor();
    await page.goBack();
    await viewer(page, '1 sunrise.png').waitFor();
    await context.close();
  });

  it('asks once for a thumbnail that will not come, however often its tile is drawn again', async () => {
    const account = await createUser(session.server);
    const folder = await createFolder(session.server, account.token, 'Odd ones');
    const photo = await createFile(
      session.server,
      account.token,
      { path: made.photoA },
      { name: '1 sunrise.png', type: 'image/png', folderId: folder.id },
    );
    const broken = await createFile(session.server, account.token, 'not a PDF at all', {
      name: '2 broken.pdf',
      type: 'application/pdf',
      folderId: folder.id,
    });
    await thumbnailsMade(account.token, [photo.id]);
    await noThumbnailWillCome(account.token, broken.id);
    const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });
    const asked = { photo: 0, broken: 0 };
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname === `/api/files/${photo.id}/thumbnail`) asked.photo += 1;
      if (pathname === `/api/files/${broken.id}/thumbnail`) asked.broken += 1;
    });
    await page.goto(`/dashboard?folder=${folder.id}`);
    await thumbnailsShown(page, ['1 sunrise.png']);
    // Each view draws its tiles anew, and so does the grid after the viewer: the photo's
    // thumbnail is fetched again (from the browser's cache), the PDF's answer is remembered.
    for (const view of ['List view', 'Grid view', 'List view', 'Grid view']) {
      await page.getByRole('button', { name: view }).click();
      await thumbnailsShown(page, ['1 sunrise.png']);
    }
    await tile(page, '1 sunrise.png').dblclick();
    await imageDecoded(page, '1 sunrise.png');
    await page.keyboard.press('Escape');
    await viewer(page, '1 sunrise.png').waitFor({ state: 'detached' });
    await thumbnailsShown(page, ['1 sunrise.png']);
    expect(asked.photo).toBeGreaterThanOrEqual(5);
    expect(asked.broken).toBe(1);
    await context.close();
  });

  it('deletes the file shown and goes on with the next; opens its version history above the viewer', async () => {
    const account = await createUser(session.server);
    const { folderId, files } = await fillFolder(account.token);
    const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });
    await page.goto(`/dashboard?folder=${folderId}&view=${files.text.id}`);
    const shown = viewer(page, '5 page.html');
    await shown.getByRole('button', { name: 'Version history' }).click();
    const history = page.getByRole('dialog', { name: 'Version history' });
    await history.waitFor();
    await page.keyboard.press('Escape');
    await history.waitFor({ state: 'detached' });
    await shown.waitFor();

    await shown.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete File' });
    await confirm.getByRole('button', { name: 'Delete File' }).click();
    await viewer(page, '6 notes.md').getByText('5 of 6').waitFor();
    await page.waitForURL((url) => url.searchParams.get('view') === files.markdown.id);
    await context.close();
  });

  it('draws a PDF page in the page and moves to the next page', async () => {
    const account = await createUser(session.server);
    const { folderId, files } = await fillFolder(account.token);
    const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });
    await page.goto(`/dashboard?folder=${folderId}&view=${files.pdf.id}`);
    const dialog = viewer(page, '3 report.pdf');
    const canvas = dialog.getByTestId('pdf-page');
    await page.waitForFunction(() => document.querySelector('[data-testid="pdf-page"]')?.getAttribute('data-page') === '1');
    // Polled: a busy machine can lay the viewer out again after the first draw, and a redraw clears the canvas first.
    await expect.poll(() => pdfCanvasHasInk(page)).toBe(true);
    await screenshot(page, 'pdf');
    await dialog.getByRole('button', { name: 'Next page' }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="pdf-page"]')?.getAttribute('data-page') === '2');
    expect(await canvas.getAttribute('aria-label')).toBe('Page 2 of 2');
    // The page never left for the bytes.
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    await context.close();
  });

  it('plays a WebM video in the browser’s player', async () => {
    const account = await createUser(session.server);
    const { folderId, files } = await fillFolder(account.token);
    const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });
    await page.goto(`/dashboard?folder=${folderId}&view=${files.webm.id}`);
    const video = viewer(page, '4 clip.webm').locator('video');
    await video.waitFor();
    await video.evaluate(async (element: HTMLVideoElement) => {
      element.muted = true;
      await element.play();
    });
    await page.waitForFunction(
      () => ((document.querySelector('[role="dialog"] video') as HTMLVideoElement | null)?.currentTime ?? 0) > 0.5,
    );
    expect(await video.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeGreaterThan(0.5);
    await screenshot(page, 'video');
    await context.close();
  });

  it('shows HTML as escaped text and Markdown without its raw HTML', async () => {
    const account = await createUser(session.server);
    const { folderId, files } = await fillFolder(account.token);
    const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });
    await page.goto(`/dashboard?folder=${folderId}&view=${files.text.id}`);
    const text = viewer(page, '5 page.html').getByTestId('text-content');
    await text.waitFor();
    expect(await text.innerText()).toContain('<script>window.__ran = true</script>');
    await screenshot(page, 'text');

    await page.keyboard.press('ArrowRight');
    const markdown = viewer(page, '6 notes.md').getByTestId('markdown');
    await markdown.getByRole('heading', { name: 'Trip notes' }).waitFor();
    expect(await markdown.locator('strong').innerText()).toBe('sunscreen');
    expect(await markdown.innerText()).toContain('<img src=x onerror="window.__ran = true">');
    expect(await markdown.locator('img, script').count()).toBe(0);
    await screenshot(page, 'markdown');

    await page.keyboard.press('ArrowRight');
    const card = viewer(page, '7 archive.zip');
    await card.getByText('There is no preview for this kind of file.').waitFor();
    await screenshot(page, 'card');
    expect(await page.evaluate(() => (window as unknown as { __ran?: boolean }).__ran)).toBeUndefined();
    await context.close();
  });

  it('reads only the first 512 KB of a long text file, with one Range request, and says so', async () => {
    const account = await createUser(session.server);
    const line = 'a line of a long log, over and over\n';
    const log = await createFile(session.server, account.token, line.repeat(Math.ceil((2 * 1024 * 1024) / line.length)), {
      name: 'big.log',
      type: 'text/plain',
    });
    const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });
    const ranges: Array<{ status: number; range: string | null }> = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/api/downloads/'))
        ranges.push({ status: response.status(), range: response.headers()['content-range'] ?? null });
    });
    await page.goto(`/dashboard?view=${log.id}`);
    const dialog = viewer(page, 'big.log');
    await dialog.getByText('Showing the first 512 KB of 2 MB. Download the file to see all of it.').waitFor();
    expect(ranges).toEqual([{ status: 206, range: `bytes 0-524287/${log.size}` }]);
    expect((await dialog.getByTestId('text-content').innerText()).length).toBeLessThanOrEqual(512 * 1024);
    await context.close();
  });

  it('shows a photo to the visitor of a public link', async () => {
    const account = await createUser(session.server);
    const { files } = await fillFolder(account.token);
    await thumbnailsMade(account.token, [files.photoA.id]);
    const { shareUrl } = await callApi<{ shareUrl: string }>(session.server, account.token, 'POST', `/files/${files.photoA.id}/share`, {
      expiresIn: 24,
    });
    const guest = await openPage(session.browser, session.server.url);
    await guest.page.goto(shareUrl);
    await guest.page.getByRole('heading', { level: 1, name: '1 sunrise.png' }).waitFor();
    // The card shows the photo (its large thumbnail).
    await guest.page.waitForFunction(() => {
      const image = document.querySelector<HTMLImageElement>('article img[data-thumbnail="large"]');
      return !!image && image.complete && image.naturalWidth > 0;
    });
    await screenshot(guest.page, 'public-card');
    await guest.page.getByRole('button', { name: 'View' }).click();
    await viewer(guest.page, '1 sunrise.png').waitFor();
    await imageDecoded(guest.page, '1 sunrise.png');
    await screenshot(guest.page, 'public-image');
    await guest.page.keyboard.press('Escape');
    await viewer(guest.page, '1 sunrise.png').waitFor({ state: 'detached' });
    expect(await focusedLabel(guest.page)).toBeNull();
    expect(await guest.page.evaluate(() => document.activeElement?.textContent)).toBe('View');
    await guest.context.close();
  });

  it('opens the files of a password-protected folder link for its visitor, with Download only', async () => {
    const account = await createUser(session.server);
    await subscribe(session.server, account.token, 'PRO');
    const { folderId, files } = await fillFolder(account.token);
    await thumbnailsMade(account.token, [files.photoA.id, files.photoB.id]);
    const { shareUrl } = await callApi<{ shareUrl: string }>(session.server, account.token, 'POST', `/user/folders/${folderId}/share`, {
      shareType: 'public',
      expiresIn: 24,
      password: 'open sesame',
    });
    const guest = await openPage(session.browser, session.server.url);
    await guest.page.goto(shareUrl);
    await guest.page.getByLabel('Password', { exact: true }).fill('open sesame');
    await guest.page.getByRole('button', { name: 'Open' }).click();
    const list = guest.page.getByRole('list', { name: 'Folder contents' });
    await guest.page.waitForFunction(() => {
      const image = document.querySelector<HTMLImageElement>('[aria-label="2 tower.jpg"] img[data-thumbnail]');
      return !!image && image.complete && image.naturalWidth > 0;
    });
    await screenshot(guest.page, 'public-folder');
    await list.getByRole('button', { name: 'View 2 tower.jpg' }).click();
    const dialog = viewer(guest.page, '2 tower.jpg');
    await imageDecoded(guest.page, '2 tower.jpg');
    expect(await dialog.getByRole('button', { name: /Delete|Share|Version history/ }).count()).toBe(0);
    await guest.page.keyboard.press('ArrowRight');
    await guest.page.waitForFunction(() => document.querySelector('[data-testid="pdf-page"]')?.getAttribute('data-page') === '1');
    await expect.poll(() => pdfCanvasHasInk(guest.page)).toBe(true);
    await guest.page.keyboard.press('Escape');
    await guest.page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'View 3 report.pdf');
    await guest.context.close();
  });

  it('opens a file of a folder shared with me, read-only', async () => {
    const owner = await createUser(session.server);
    const recipient = await createUser(session.server);
    await verifyViaOutbox(session.server, recipient.email);
    const { folderId } = await fillFolder(owner.token);
    await callApi(session.server, owner.token, 'POST', `/user/folders/${folderId}/share`, { shareType: 'private', email: recipient.email });
    const { page, context } = await openPage(session.browser, session.server.url, { token: recipient.token });
    await page.goto(`/shared?folder=${folderId}`);
    await page.getByRole('button', { name: 'View 5 page.html' }).click();
    const dialog = viewer(page, '5 page.html');
    expect(await dialog.getByTestId('text-content').innerText()).toContain('<script>');
    expect(await dialog.getByRole('button', { name: /Delete|Share|Version history/ }).count()).toBe(0);
    await page.keyboard.press('ArrowLeft');
    await viewer(page, '4 clip.webm').locator('video').waitFor();
    await context.close();
  });

  it('on a phone: a tap opens a file and a swipe moves to the next', async () => {
    const account = await createUser(session.server);
    const { folderId } = await fillFolder(account.token);
    const { page, context } = await openPage(session.browser, session.server.url, {
      token: account.token,
      viewport: { width: 390, height: 844 },
      mobile: true,
    });
    await page.goto(`/dashboard?folder=${folderId}`);
    const photo = tile(page, '1 sunrise.png');
    await photo.waitFor();
    const box = (await photo.boundingBox())!;
    await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
    await viewer(page, '1 sunrise.png').waitFor();
    await imageDecoded(page, '1 sunrise.png');
    await screenshot(page, 'phone-image');

    await swipeLeft(page);
    await viewer(page, '2 tower.jpg').waitFor();
    await imageDecoded(page, '2 tower.jpg');
    await screenshot(page, 'phone-image-next');
    await context.close();
  });
});

/** A finger dragged from right to left across the middle of the screen. */
async function swipeLeft(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const y = 420;
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: 330, y }] });
  for (const x of [290, 240, 190, 140, 90]) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}
