import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFile, createFolder } from '@cloudvault/test-support/drive';
import { callApi } from '@cloudvault/test-support/running-server';
import { THEMES, violationsOf } from './helpers/axe.ts';
import { promisePool, tile } from './helpers/drive.ts';
import { WITHOUT_SERVICE_WORKER } from './helpers/browser.ts';
import { useE2eSession } from './helpers/session.ts';

const session = useE2eSession('file-manager-sort');
const shots = fileURLToPath(new URL('../.test-artifacts/screenshots/file-manager-sort', import.meta.url));

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
/** More than one page of the web's listing (100 items a page): six pages. */
const BIG_FOLDER_FILES = 600;

/** One account, one signed-in page for every journey of the file. */
const shared = {
  token: '',
  bigId: '',
  bigFileIds: [] as string[],
  deepId: '',
  page: undefined as unknown as Page,
  context: undefined as unknown as BrowserContext,
};

beforeAll(async () => {
  const account = await createUser(session.server, { firstName: 'Maximiliana', lastName: 'Oberhollenzer-Castellanos' });
  shared.token = account.token;
  const { server } = session;
  // Folders first whatever the order; files whose name, size, age and type each sort differently.
  await createFolder(server, account.token, 'Archive');
  await createFolder(server, account.token, 'Photos');
  await createFile(server, account.token, 'x'.repeat(300), { name: 'file 2.txt', type: 'application/pdf' });
  await createFile(server, account.token, 'x'.repeat(100), { name: 'file 10.txt', type: 'text/plain' });
  await createFile(server, account.token, 'x'.repeat(200), { name: 'file 1.txt', type: 'image/png' });

  const big = await createFolder(server, account.token, 'Big');
  shared.bigId = big.id;
  // The Free plan's three uploads at once.
  await promisePool(BIG_FOLDER_FILES, 3, async (index) => {
    const made = await createFile(server, account.token, `#${index}`, {
      name: `item ${index + 1}.txt`,
      type: 'text/plain',
      folderId: big.id,
    });
    shared.bigFileIds[index] = made.id;
  });

  const outer = await createFolder(server, account.token, 'Quarterly reports');
  const middle = await createFolder(server, account.token, 'Northern region', outer.id);
  const deep = await createFolder(server, account.token, 'Customer correspondence 2026', middle.id);
  shared.deepId = deep.id;

  // One page for every journey (a failed journey leaves a screenshot, as openPage's pages do).
  shared.context = await session.browser.newContext({ ...WITHOUT_SERVICE_WORKER, baseURL: session.server.url, viewport: DESKTOP });
  await shared.context.addInitScript((token) => window.localStorage.setItem('token', token), account.token);
  shared.page = await shared.context.newPage();
  shared.page.setDefaultTimeout(10_000);
}, 120_000);
afterEach(async ({ task }) => {
  if (task.result?.state === 'fail') await screenshot(shared.page, `failed-${task.name.replace(/\W+/g, '-')}`).catch(() => {});
});
afterAll(() => shared.context?.close());

/** The names the grid shows, in order (each cell's first paragraph is its name). */
const shownNames = (page: Page) =>
  page.evaluate(() => Array.from(document.querySelectorAll('[role="gridcell"]')).map((cell) => cell.querySelector('p')?.textContent ?? ''));

/** Waits until the grid shows exactly these names first, in this order. */
async function expectOrder(page: Page, names: string[]): Promise<void> {
  await page
    .waitForFunction(
      (wanted) =>
        JSON.stringify(
          Array.from(document.querySelectorAll('[role="gridcell"]'))
            .slice(0, wanted.length)
            .map((cell) => cell.querySelector('p')?.textContent),
        ) === JSON.stringify(wanted),
      names,
    )
    .catch(async (error: unknown) => {
      throw new Error(`expected ${names.join(', ')}; shown ${(await shownNames(page)).join(', ')}`, { cause: error });
    });
}

const header = (page: Page, name: string) => page.getByRole('columnheader', { name });

async function chooseFromSortMenu(page: Page, label: string): Promise<void> {
  await page.getByRole('button', { name: 'Sort' }).click();
  await page.getByRole('menu', { name: 'Sort' }).getByRole('menuitemradio', { name: label }).click();
}

async function storedListing(): Promise<unknown> {
  const { settings } = await callApi<{ settings: { listing: unknown } }>(session.server, shared.token, 'GET', '/user/settings');
  return settings.listing;
}

/** Each journey starts from the default order, whatever the one before left. */
async function startByName(): Promise<void> {
  const { settings } = await callApi<{ settings: object }>(session.server, shared.token, 'GET', '/user/settings');
  await callApi(session.server, shared.token, 'PUT', '/user/settings', { ...settings, listing: { sort: 'name', order: 'asc' } });
}

async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`) });
}

describe('sorting the file manager', () => {
  it('sorts by each column header and flips the order, folders always first, names in natural order', async () => {
    const { page } = shared;
    await startByName();
    await page.goto('/dashboard');
    await tile(page, 'file 1.txt').waitFor();
    await page.getByRole('button', { name: 'List view' }).click();
    await page.locator('[role="grid"][data-view="list"]').waitFor();

    const files = ['file 1.txt', 'file 2.txt', 'file 10.txt'];
    const folders = ['Archive', 'Big', 'Photos', 'Quarterly reports'];
    await expectOrder(page, [...folders, ...files]);
    expect(await header(page, 'Name').getAttribute('aria-sort')).toBe('ascending');
    expect(await header(page, 'Size').getAttribute('aria-sort')).toBe('none');

    // The same header again: descending, folders still first.
    await header(page, 'Name').getByRole('button').click();
    await expectOrder(page, [...[...folders].reverse(), ...[...files].reverse()]);
    expect(await header(page, 'Name').getAttribute('aria-sort')).toBe('descending');

    // Another header: by it, ascending (folders have no size: by name).
    await header(page, 'Size').getByRole('button').click();
    await expectOrder(page, [...folders, 'file 10.txt', 'file 1.txt', 'file 2.txt']);
    await screenshot(page, 'list-by-size');
    expect(await header(page, 'Size').getAttribute('aria-sort')).toBe('ascending');
    expect(await header(page, 'Name').getAttribute('aria-sort')).toBe('none');
    await header(page, 'Size').getByRole('button').click();
    await expectOrder(page, [...[...folders].reverse(), 'file 2.txt', 'file 1.txt', 'file 10.txt']);

    // Modified: oldest first, in the order they were made.
    await header(page, 'Modified').getByRole('button').click();
    await expectOrder(page, ['Archive', 'Photos', 'Big', 'Quarterly reports', 'file 2.txt', 'file 10.txt', 'file 1.txt']);
    expect(await header(page, 'Modified').getAttribute('aria-sort')).toBe('ascending');

    // The type has no column: the Sort menu, which marks the chosen entries.
    await chooseFromSortMenu(page, 'Type');
    await expectOrder(page, [...folders, 'file 2.txt', 'file 1.txt', 'file 10.txt']);
    await chooseFromSortMenu(page, 'Descending');
    await expectOrder(page, [...[...folders].reverse(), 'file 10.txt', 'file 1.txt', 'file 2.txt']);
    await page.getByRole('button', { name: 'Sort' }).click();
    const menu = page.getByRole('menu', { name: 'Sort' });
    expect(await menu.getByRole('menuitemradio', { name: 'Type' }).getAttribute('aria-checked')).toBe('true');
    expect(await menu.getByRole('menuitemradio', { name: 'Descending' }).getAttribute('aria-checked')).toBe('true');
    expect(await menu.getByRole('menuitemradio', { name: 'Name' }).getAttribute('aria-checked')).toBe('false');
    await page.keyboard.press('Escape');

    // Saved in the settings: a reload (any device) lists it the same way.
    await expect.poll(storedListing).toEqual({ sort: 'type', order: 'desc' });
    await page.reload();
    await expectOrder(page, [...[...folders].reverse(), 'file 10.txt', 'file 1.txt', 'file 2.txt']);

    // By keyboard: the menu opens on Enter, arrows move, Enter picks.
    await page.getByRole('button', { name: 'Sort' }).focus();
    await page.keyboard.press('Enter');
    await menu.waitFor();
    await page.keyboard.press('Home');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Sort' }).focus();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await expectOrder(page, [...folders, ...files]);
    await expect.poll(storedListing).toEqual({ sort: 'name', order: 'asc' });
  });

  it('pages a 600-file folder in as it scrolls, in natural order both ways, and as the viewer goes past a page', async () => {
    const { page } = shared;
    await startByName();
    const cursors: string[] = [];
    const onRequest = (request: { url(): string }) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/files' && url.searchParams.get('folderId') === shared.bigId && url.searchParams.has('cursor')) {
        cursors.push(url.searchParams.get('cursor')!);
      }
    };
    page.on('request', onRequest);
    await page.goto(`/dashboard?folder=${shared.bigId}`);
    await expectOrder(page, ['item 1.txt', 'item 2.txt', 'item 3.txt']);
    // One page so far: the summary says there are more.
    await page.getByText('100+ items').waitFor();
    expect(cursors).toEqual([]);

    // Scrolling to the end of what is shown brings the next pages, until the last file.
    while (!(await tile(page, `item ${BIG_FOLDER_FILES}.txt`).count())) {
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await page.waitForFunction(() => !document.body.textContent?.includes('Loading more items'));
    }
    await page.getByText(`${BIG_FOLDER_FILES} items`, { exact: true }).waitFor();
    expect(cursors.length).toBe(5);
    expect(await page.locator('[role="gridcell"]').count()).toBeLessThan(100);

    // Descending: the last name by value comes first, from a new first page.
    await page.evaluate(() => window.scrollTo(0, 0));
    await header(page, 'Name').getByRole('button').click();
    await expectOrder(page, [`item ${BIG_FOLDER_FILES}.txt`, `item ${BIG_FOLDER_FILES - 1}.txt`]);
    await page.getByText('100+ items').waitFor();
    await header(page, 'Name').getByRole('button').click();
    await expectOrder(page, ['item 1.txt', 'item 2.txt']);
    page.off('request', onRequest);

    // The viewer on the last file of the first page: Next goes on into the second.
    await page.goto(`/dashboard?folder=${shared.bigId}&view=${shared.bigFileIds[99]}`);
    await page.getByRole('dialog', { name: 'Viewer: item 100.txt' }).waitFor();
    await page.getByText('200+ items').waitFor();
    await page.keyboard.press('ArrowRight');
    await page.getByRole('dialog', { name: 'Viewer: item 101.txt' }).waitFor();
    await page.keyboard.press('Escape');
  });

  it('keeps the toolbar on one row on a phone, with Sort and a More menu, and folds the middle of the path', async () => {
    const { page } = shared;
    await startByName();
    await page.setViewportSize(PHONE);
    await page.goto('/dashboard');
    await tile(page, 'file 1.txt').waitFor();

    const toolbar = [
      page.getByRole('searchbox', { name: 'Search files' }),
      page.getByRole('button', { name: 'Sort' }),
      page.getByRole('button', { name: 'Upload', exact: true }),
      page.getByRole('button', { name: 'More', exact: true }),
    ];
    const boxes = await Promise.all(toolbar.map((control) => control.boundingBox()));
    const tops = boxes.map((box) => Math.round(box!.y));
    expect(new Set(tops).size, `tops ${tops.join(', ')}`).toBe(1);
    for (const box of boxes) expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    // Upload keeps its label.
    expect(await toolbar[2]!.innerText()).toBe('Upload');
    await screenshot(page, 'phone-toolbar');

    // The list's headers are hidden on a phone: Sort is the way.
    await chooseFromSortMenu(page, 'Descending');
    await expectOrder(page, ['Quarterly reports', 'Photos', 'Big', 'Archive', 'file 10.txt']);
    await chooseFromSortMenu(page, 'Ascending');
    await expectOrder(page, ['Archive', 'Big']);

    // More: New Folder, the views, sharing and Trash.
    await page.getByRole('button', { name: 'More', exact: true }).click();
    const more = page.getByRole('menu', { name: 'More' });
    await more.getByRole('menuitemradio', { name: 'Grid view' }).click();
    await page.locator('[role="grid"][data-view="grid"]').waitFor();
    await page.getByRole('button', { name: 'More', exact: true }).click();
    expect(await more.getByRole('menuitemradio', { name: 'Grid view' }).getAttribute('aria-checked')).toBe('true');
    await more.getByRole('menuitem', { name: 'New Folder' }).click();
    await page.getByRole('dialog', { name: 'Create New Folder' }).waitFor();
    await page.keyboard.press('Escape');

    // The signed-in header: the name is whole or ends in an ellipsis, with the whole of it in a title.
    const name = page.getByRole('banner').getByTitle('Maximiliana Oberhollenzer-Castellanos');
    if (await name.count()) expect(await name.first().evaluate((element) => getComputedStyle(element).textOverflow)).toBe('ellipsis');

    // A deep folder: My Files, "…" and the open folder, on one line.
    await page.goto(`/dashboard?folder=${shared.deepId}`);
    const crumbs = page.getByRole('navigation', { name: 'Folder path' });
    await crumbs.getByRole('link', { name: 'Customer correspondence 2026' }).waitFor();
    expect(await crumbs.getByRole('link', { name: 'Northern region' }).isVisible()).toBe(false);
    const line = await Promise.all(
      [crumbs.getByRole('link', { name: 'My Files' }), crumbs.getByRole('link', { name: 'Customer correspondence 2026' })].map(
        async (link) => Math.round((await link.boundingBox())!.y),
      ),
    );
    expect(line[0]).toBe(line[1]);
    await screenshot(page, 'phone-breadcrumbs');
    await crumbs.getByRole('button', { name: 'Folders in between' }).click();
    await page.getByRole('menuitem', { name: 'Northern region' }).click();
    await crumbs.getByRole('link', { name: 'Northern region' }).waitFor();
    expect(await crumbs.getByRole('link', { name: 'Quarterly reports' }).isVisible()).toBe(false);
    await page.setViewportSize(DESKTOP);
  });

  it('has no axe violations with the Sort menu open, at both sizes in both themes, nor the phone with More open', async () => {
    const { page } = shared;
    await startByName();
    await page.goto('/dashboard');
    await tile(page, 'file 1.txt').waitFor();
    // The list view: its sortable column headers are audited with the menu open.
    await page.getByRole('button', { name: 'List view' }).click();
    await page.locator('[role="grid"][data-view="list"]').waitFor();
    const found: string[] = [];
    for (const [size, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      await page.setViewportSize(viewport);
      for (const theme of THEMES) {
        await page.emulateMedia({ colorScheme: theme });
        await page.getByRole('button', { name: 'Sort' }).click();
        await page.getByRole('menu', { name: 'Sort' }).waitFor();
        found.push(...(await violationsOf(page, { label: `${size} ${theme}, Sort open:` })));
        await screenshot(page, `sort-menu-${size}-${theme}`);
        await page.keyboard.press('Escape');
        if (size === 'phone') {
          await page.getByRole('button', { name: 'More', exact: true }).click();
          await page.getByRole('menu', { name: 'More' }).waitFor();
          found.push(...(await violationsOf(page, { label: `${size} ${theme}, More open:` })));
          await page.keyboard.press('Escape');
        }
      }
    }
    await page.setViewportSize(DESKTOP);
    expect(found).toEqual([]);
  });
});
