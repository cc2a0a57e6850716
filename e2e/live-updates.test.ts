import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { createAppPassword, createUser } from '@cloudvault/test-support/accounts';
import { createFile, createFolder, listFiles } from '@cloudvault/test-support/drive';
import { callApi } from '@cloudvault/test-support/running-server';
import { VIEWPORTS } from './helpers/axe.ts';
import { dropFiles, randomContent, tile } from './helpers/drive.ts';
import { verifyViaOutbox } from './helpers/outbox.ts';
import { WITHOUT_SERVICE_WORKER } from './helpers/browser.ts';
import { useE2eSession } from './helpers/session.ts';

/*
 * Issue 37's live screens: two tabs of one browser (two pages of one context) on the same
 * account. What one tab does, and what a WebDAV client, another person or the API does,
 * shows in the other tab's listing, storage bar, Trash, Shared with me and bell without a
 * reload: a marker set on the watching tab's window is still there at the end of each
 * journey. Every wait is on what the page shows.
 */

const session = useE2eSession('live-updates');
const shots = fileURLToPath(new URL('../.test-artifacts/screenshots/live-updates', import.meta.url));
const [DESKTOP, PHONE] = VIEWPORTS;
type Size = (typeof VIEWPORTS)[number];
type Account = Awaited<ReturnType<typeof createUser>>;

/** A browser context (one window of tabs) signed in as `account`, at a size. */
async function signedInWindow(account: Account, size: Size = DESKTOP): Promise<BrowserContext> {
  const context = await session.browser.newContext({
    ...WITHOUT_SERVICE_WORKER,
    baseURL: session.server.url,
    viewport: size.viewport,
    ...(size.mobile ? { isMobile: true, hasTouch: true } : {}),
  });
  await context.addInitScript((token) => window.localStorage.setItem('token', token), account.token);
  onTestFailed(async ({ task }) => {
    await mkdir(shots, { recursive: true });
    for (const [index, page] of context.pages().entries())
      await page.screenshot({ path: path.join(shots, `${task.name.replace(/\W+/g, '-')}-tab${index + 1}.png`) }).catch(() => {});
  });
  return context;
}

const isChangeStream = (url: string) => new URL(url).pathname === '/api/changes/stream';

/** The page's next change stream, answered 200 (the tab follows changes from then on). */
const nextStream = (page: Page) => page.waitForResponse((response) => isChangeStream(response.url()) && response.status() === 200);

/*
 * Playwright acts in one tab at a time; the tab acted in is brought to the front first, as a
 * person would, since a tab behind another gets its animation frames late (its clicks wait
 * for them). The other tab keeps following changes while behind: that is what is proven.
 */

/**
 * A new tab at `address`, once its change stream is open, marked: a reload or a full
 * navigation would lose the mark (stillSameDocument).
 */
async function openTab(context: BrowserContext, address: string): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const streaming = nextStream(page);
  await page.goto(address);
  await streaming;
  await page.evaluate(() => ((window as unknown as { liveMark: string }).liveMark = 'never reloaded'));
  return page;
}

async function stillSameDocument(page: Page): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { liveMark?: string }).liveMark)).toBe('never reloaded');
}

const storageUsage = (page: Page) => page.getByRole('region', { name: 'Storage' }).getByText(/ of .+ used$/);

/** Waits until the storage bar's usage line says something else than `before`. */
async function storageChangedFrom(page: Page, before: string): Promise<string> {
  const changed = storageUsage(page).filter({ hasNotText: before });
  await changed.waitFor();
  return (await changed.textContent()) ?? '';
}

/** A link of the dashboard's toolbar (Trash, Shared with me) as a person would at the page's size: a phone has them under More. */
async function openFromToolbar(page: Page, name: string): Promise<void> {
  if ((page.viewportSize()?.width ?? 1280) >= 640) {
    await page.getByRole('main').getByRole('link', { name, exact: true }).click();
    return;
  }
  await page.getByRole('button', { name: 'More', exact: true }).click();
  await page.getByRole('menu', { name: 'More' }).getByText(name, { exact: true }).click();
}

/** Selects an item of the grid with a click and presses a key on it (a keyboard's way: desktop only). */
async function pressOn(page: Page, name: string, key: string): Promise<void> {
  await tile(page, name).click();
  await tile(page, name).press(key);
}

/** An entry of an item's own menu (its More actions button), as at any size: a tap on a phone opens the file instead. */
async function itemMenu(page: Page, name: string, entry: string): Promise<void> {
  await tile(page, name).hover();
  await tile(page, name).getByRole('button', { name: 'More actions' }).click();
  await page.getByRole('menuitem', { name: entry, exact: true }).click();
}

async function deleteInUi(page: Page, name: string): Promise<void> {
  await itemMenu(page, name, 'Delete');
  const dialog = page.getByRole('dialog', { name: 'Delete File' });
  await dialog.getByRole('button', { name: 'Delete File' }).click();
  await tile(page, name).waitFor({ state: 'detached' });
}

async function uploadInUi(page: Page, name: string, content: string): Promise<void> {
  await dropFiles(page, [{ name, content }]);
  await tile(page, name).waitFor();
}

const deletedItems = (page: Page) => page.getByRole('list', { name: 'Deleted items' });
const trashed = (page: Page, name: string): Locator => deletedItems(page).getByRole('listitem', { name });

describe.each([DESKTOP, PHONE])('live updates between two tabs ($name)', (size) => {
  it('an upload, a rename and deletes in tab A show in tab B’s listing, storage bar and Trash without a reload', async () => {
    const account = await createUser(session.server, { firstName: 'Grace' });
    const context = await signedInWindow(account, size);
    const a = await openTab(context, '/dashboard');
    const b = await openTab(context, '/dashboard');
    await b.getByText('Your cloud is empty').waitFor();
    await a.bringToFront();
    const emptyUsage = (await storageUsage(b).textContent()) ?? '';

    // Upload in A: B lists the file and its storage bar counts it.
    await uploadInUi(a, 'report.txt', 'r'.repeat(40_000));
    await tile(b, 'report.txt').waitFor();
    const withReport = await storageChangedFrom(b, emptyUsage);
    expect(withReport).toMatch(/^39(\.\d+)? KB of/);

    // Rename in A: B shows the new name in place of the old.
    await itemMenu(a, 'report.txt', 'Rename');
    const rename = a.getByRole('dialog', { name: 'Rename' });
    // Filled once the dialog has put the focus there itself (selecting the name without its
    // extension), so that focusing does not come between the fill's selection and its typing.
    await a.waitForFunction(() => document.activeElement?.closest('[role="dialog"]') && document.activeElement.tagName === 'INPUT');
    await rename.getByLabel('New name').fill('summary.txt');
    await rename.getByLabel('New name').press('Enter');
    await tile(b, 'summary.txt').waitFor();
    await tile(b, 'report.txt').waitFor({ state: 'detached' });

    // Delete in A: B's listing drops it.
    await deleteInUi(a, 'summary.txt');
    await tile(b, 'summary.txt').waitFor({ state: 'detached' });
    await b.getByText('Your cloud is empty').waitFor();

    // B opens its Trash; the next file A deletes shows up there as it happens.
    await b.bringToFront();
    await openFromToolbar(b, 'Trash');
    await trashed(b, 'summary.txt').waitFor();
    await a.bringToFront();
    await uploadInUi(a, 'draft.txt', 'd'.repeat(2000));
    await deleteInUi(a, 'draft.txt');
    await trashed(b, 'draft.txt').waitFor();

    // Restored from another device: B's Trash lets it go, and B's listing has it back.
    const [draft] = (await callApi<{ files: Array<{ id: string; originalName: string }> }>(session.server, account.token, 'GET', '/trash'))
      .files;
    expect(draft?.originalName).toBe('draft.txt');
    await callApi(session.server, account.token, 'POST', '/trash/restore', { type: 'file', id: draft!.id });
    await trashed(b, 'draft.txt').waitFor({ state: 'detached' });
    await trashed(b, 'summary.txt').waitFor();
    await b.bringToFront();
    await b.goBack();
    await tile(b, 'draft.txt').waitFor();

    await stillSameDocument(b);
    await stillSameDocument(a);
    await context.close();
  });
});

describe('live updates from elsewhere', () => {
  let account: Account;
  beforeAll(async () => {
    account = await createUser(session.server, { firstName: 'Ada' });
    // Private shares show only to a verified address.
    await verifyViaOutbox(session.server, account.email);
  });

  it('a folder made and a file moved in tab A: tab B’s open folder gains it, and loses it when it moves on', async () => {
    const context = await signedInWindow(account);
    await createFile(session.server, account.token, 'm'.repeat(100), { name: 'minutes.txt' });
    const a = await openTab(context, '/dashboard');
    const b = await openTab(context, '/dashboard');

    // New Folder in A: B's listing has it; B opens it.
    await a.bringToFront();
    await a.getByRole('button', { name: 'New Folder' }).first().click();
    const create = a.getByRole('dialog', { name: 'Create New Folder' });
    await create.getByLabel('Folder name').fill('Archive');
    await create.getByLabel('Folder name').press('Enter');
    await b.bringToFront();
    await tile(b, 'Archive').dblclick();
    await b.getByText('This folder is empty').waitFor();
    await a.bringToFront();

    // A moves the file into Archive from its menu: B, inside Archive, sees it arrive.
    await pressOn(a, 'minutes.txt', 'Shift+F10');
    await a.getByRole('menuitem', { name: 'Move to…' }).click();
    const move = a.getByRole('dialog', { name: 'Move “minutes.txt”' });
    await move.getByRole('button', { name: 'Open Archive' }).click();
    await move.getByRole('button', { name: 'Move here' }).click();
    await tile(a, 'minutes.txt').waitFor({ state: 'detached' });
    await tile(b, 'minutes.txt').waitFor();

    // Moved on (to the top level) by another device: it leaves B's Archive.
    const [minutes] = await listFiles(session.server, account.token, new URL(b.url()).searchParams.get('folder'));
    await callApi(session.server, account.token, 'PATCH', `/files/${minutes!.id}`, { folderId: null });
    await tile(b, 'minutes.txt').waitFor({ state: 'detached' });
    await b.getByText('This folder is empty').waitFor();
    await stillSameDocument(b);
    await context.close();
  });

  it('files put over WebDAV show in the open tab’s listing, storage bar and viewer, new content and deletion included', async () => {
    const context = await signedInWindow(account);
    const b = await openTab(context, '/dashboard');
    await storageUsage(b).waitFor();
    const before = (await storageUsage(b).textContent()) ?? '';

    const auth = `Basic ${Buffer.from(`${account.email}:${await createAppPassword(session.server, account)}`).toString('base64')}`;
    const dav = (method: string, name: string, body?: Uint8Array<ArrayBuffer> | string) =>
      fetch(`${session.server.url}/dav/${name}`, { method, headers: { authorization: auth }, body });
    expect((await dav('PUT', 'from-webdav.bin', new Uint8Array(randomContent(30_000)))).status).toBe(201);
    await tile(b, 'from-webdav.bin').waitFor();
    await storageChangedFrom(b, before);

    // A text file open in B's viewer: new bytes put over it are drawn anew; deleted, the viewer closes.
    expect((await dav('PUT', 'notes.txt', 'first draft')).status).toBe(201);
    await tile(b, 'notes.txt').dblclick();
    const viewer = b.getByRole('dialog', { name: 'Viewer: notes.txt' });
    await viewer.getByTestId('text-content').getByText('first draft').waitFor();
    expect((await dav('PUT', 'notes.txt', 'second draft, longer')).status).toBe(204);
    await viewer.getByTestId('text-content').getByText('second draft, longer').waitFor();
    expect((await dav('DELETE', 'notes.txt')).status).toBe(204);
    await viewer.waitFor({ state: 'detached' });
    await tile(b, 'notes.txt').waitFor({ state: 'detached' });
    await stillSameDocument(b);
    await context.close();
  });

  it('a folder shared by another person shows in Shared with me and rings the bell', async () => {
    const context = await signedInWindow(account);
    const b = await openTab(context, '/shared');
    await b.getByRole('button', { name: 'Notifications', exact: true }).waitFor();

    const owner = await createUser(session.server, { firstName: 'Linus' });
    const team = await createFolder(session.server, owner.token, 'Team plans');
    await callApi(session.server, owner.token, 'POST', `/user/folders/${team.id}/share`, { shareType: 'private', email: account.email });

    await b.getByRole('list', { name: 'Folders shared with you' }).getByRole('listitem', { name: 'Team plans' }).waitFor();
    await b.getByRole('button', { name: 'Notifications, 1 unread' }).waitFor();
    await stillSameDocument(b);
    await context.close();
  });

  it('after the network drops, the tab catches up on what changed meanwhile', async () => {
    const context = await signedInWindow(account);
    const b = await openTab(context, '/dashboard');
    await storageUsage(b).waitFor();
    const before = (await storageUsage(b).textContent()) ?? '';

    await context.setOffline(true);
    await b.waitForFunction(() => !navigator.onLine);
    await createFile(session.server, account.token, randomContent(20_000), { name: 'while-offline.bin' });
    const reconnected = nextStream(b);
    await context.setOffline(false);
    await reconnected;
    await tile(b, 'while-offline.bin').waitFor();
    await storageChangedFrom(b, before);
    await stillSameDocument(b);
    await context.close();
  });
});
