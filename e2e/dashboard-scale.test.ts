import { describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFile, createFolder } from '@cloudvault/test-support/drive';
import { seedFiles } from '../apps/server/test/helpers/seeded-files.ts';
import { openPage } from './helpers/browser.ts';
import { tile, waitForFocusedTile } from './helpers/drive.ts';
import { openSeedTarget } from './helpers/seeded-drive.ts';
import { useE2eSession } from './helpers/session.ts';

const FILE_COUNT = 2000;

const session = useE2eSession('dashboard-scale');
const fileName = (index: number) => `file-${String(index).padStart(4, '0')}.txt`;

describe('a folder of 2,000 files', () => {
  it('opens, scrolls to the end in grid and list view, and keeps only what is visible in the page', { timeout: 180_000 }, async () => {
    const account = await createUser(session.server);
    const big = await createFolder(session.server, account.token, 'Big folder');
    // Put in the server's store and database directly: what is checked is the folder's pages, not
    // 2,000 uploads (at a load of 21 the test took 95 s with them, 75 s without).
    const seed = await openSeedTarget(session.server);
    try {
      const files = new Map(Array.from({ length: FILE_COUNT }, (_, index) => [fileName(index), Buffer.from(`#${index}`)]));
      await seedFiles(seed, { userId: account.user.id, folderId: big.id, files });
    } finally {
      await seed.close();
    }

    const { page, context } = await openPage(session.browser, session.server.url, {
      token: account.token,
      viewport: { width: 1280, height: 900 },
    });
    await page.goto('/dashboard');

    // How fast is the bench's business (`npm run bench`), not a test's: these check what appears.
    await tile(page, 'Big folder').dblclick();
    await tile(page, fileName(0)).waitFor();
    // The folder comes a page at a time (docs/decisions/0051-paged-listing-in-the-web.md): the first says there is more.
    await page.getByText('100+ items').waitFor();

    const renderedTiles = () => page.locator('[role="gridcell"]').count();
    expect(await renderedTiles()).toBeLessThan(200);

    // Scroll to the end, each page coming as the end nears: the last file is there, and still only a window of tiles exists.
    while (!(await tile(page, fileName(FILE_COUNT - 1)).count())) {
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await page.waitForFunction(() => !document.body.textContent?.includes('Loading more items'));
    }
    await page.getByText('2,000 items').or(page.getByText('2000 items')).first().waitFor();
    expect(await tile(page, fileName(FILE_COUNT - 1)).isVisible()).toBe(true);
    expect(await tile(page, fileName(0)).count()).toBe(0);
    expect(await renderedTiles()).toBeLessThan(200);

    // Scrolling back up in steps paints a frame after each and ends at the first file.
    for (let step = 0; step < 10; step += 1) {
      await page.mouse.wheel(0, -2000);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await tile(page, fileName(0)).waitFor();
    expect(await renderedTiles()).toBeLessThan(200);

    // The list view too; the keyboard's End reaches the last file.
    await page.getByRole('button', { name: 'List view' }).click();
    await page.evaluate(() => window.scrollTo(0, 0));
    await tile(page, fileName(0)).click();
    await page.keyboard.press('End');
    await tile(page, fileName(FILE_COUNT - 1)).waitFor();
    await waitForFocusedTile(page, fileName(FILE_COUNT - 1));
    expect(await tile(page, fileName(FILE_COUNT - 1)).getAttribute('aria-selected')).toBe('true');
    expect(await renderedTiles()).toBeLessThan(200);

    // Search inside the big folder stays instant.
    await page.getByRole('searchbox', { name: 'Search files' }).fill('file-1234');
    await tile(page, 'file-1234.txt').waitFor();
    expect(await renderedTiles()).toBe(1);
    await context.close();
  });
});

describe('phone', () => {
  it('selects a folder with one tap, says to double tap, and opens it with a double tap', async () => {
    const account = await createUser(session.server);
    const trip = await createFolder(session.server, account.token, 'Trip');
    await createFile(session.server, account.token, 'jpg', { name: 'beach.jpg', type: 'image/jpeg', folderId: trip.id });
    const { page, context } = await openPage(session.browser, session.server.url, {
      token: account.token,
      viewport: { width: 390, height: 844 },
      mobile: true,
    });
    await page.goto('/dashboard');
    const folder = tile(page, 'Trip');
    await folder.waitFor();
    const box = (await folder.boundingBox())!;
    const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };

    await page.touchscreen.tap(centre.x, centre.y);
    await folder.getByText('Double tap to open folder').waitFor();
    expect(await folder.getAttribute('aria-selected')).toBe('true');
    // A second tap after the 300 ms window (docs/product.md#dashboard) only selects again:
    // the window is waited out on the page's own clock, the tap until its click was handled.
    const firstTapSeenAt = await page.evaluate(() => performance.now());
    await page.waitForFunction((since) => performance.now() - since > 300, firstTapSeenAt);
    const click = await page.evaluateHandle(() => ({
      handled: new Promise<void>((resolve) => document.addEventListener('click', () => resolve(), { once: true })),
    }));
    await page.touchscreen.tap(centre.x, centre.y);
    await click.evaluate(({ handled }) => handled);
    // The router's navigation, had the tap opened the folder, would have landed by the next frames.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await page.evaluate(() => new URL(location.href).searchParams.get('folder'))).toBeNull();

    await page.touchscreen.tap(centre.x, centre.y);
    await page.touchscreen.tap(centre.x, centre.y);
    await page.waitForURL((url) => url.searchParams.get('folder') === trip.id);
    await tile(page, 'beach.jpg').waitFor();
    await context.close();
  });
});
