import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { subscribe } from '@cloudvault/test-support/checkout';
import { createFile, createFolder, listFiles, listFolders } from '@cloudvault/test-support/drive';
import { callApi } from '@cloudvault/test-support/running-server';
import type { SharesResponse } from '@cloudvault/contract/shares';
import { THEMES, VIEWPORTS, violationsOf } from './helpers/axe.ts';
import { tile } from './helpers/drive.ts';
import { WITHOUT_SERVICE_WORKER } from './helpers/browser.ts';
import { useE2eSession } from './helpers/session.ts';

/*
 * Issue 36's smaller journeys, on one signed-in page of one Pro account: a file shared like a
 * folder (link options, a person, its existing shares), the viewer opened with nothing
 * selected and driven on a phone, the Move dialog's new folder, and the activity naming files.
 */

const session = useE2eSession('file-share-viewer');
let account: Awaited<ReturnType<typeof createUser>>;
let context: BrowserContext;
let page: Page;

const [DESKTOP, PHONE] = VIEWPORTS;
const shots = fileURLToPath(new URL('../.test-artifacts/screenshots/file-share-viewer', import.meta.url));
const toast = (text: string | RegExp) => page.getByRole('status').filter({ hasText: text }).first();
const shareDialog = () => page.getByRole('dialog', { name: 'Share File' });
const viewer = (name: string) => page.getByRole('dialog', { name: `Viewer: ${name}` });

async function openShareDialog(name: string) {
  await tile(page, name).hover();
  await tile(page, name).getByRole('button', { name: 'Share', exact: true }).click();
  await shareDialog().waitFor();
}

/** The open dialog's (or viewer's) axe violations at both sizes, in both themes; the page is left at desktop size, light. */
async function auditEverywhere(label: string): Promise<string[]> {
  const found: string[] = [];
  for (const { name, viewport } of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      found.push(...(await violationsOf(page, { label: `${label} (${name}, ${theme})`, scope: '[role="dialog"]' })));
    }
  }
  await page.setViewportSize(DESKTOP.viewport);
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}

/** Saved for a person to look at (.test-artifacts/screenshots/file-share-viewer), once the entrance animations are over. */
async function screenshot(name: string): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
  await mkdir(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`) });
}

/** A finger dragged across the page from one point to another, through Chromium's touch input (DevTools protocol). */
async function swipe(from: { x: number; y: number }, to: { x: number; y: number }) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 1 });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] });
  for (let step = 1; step <= 5; step += 1) {
    const at = { x: from.x + ((to.x - from.x) * step) / 5, y: from.y + ((to.y - from.y) * step) / 5 };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [at] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: false });
  await cdp.detach();
}

beforeAll(async () => {
  account = await createUser(session.server, { firstName: 'Ada' });
  // Pro: password links and a choice of lifetime.
  await subscribe(session.server, account.token, 'PRO');
  for (const name of ['a-notes.txt', 'b-notes.txt', 'c-notes.txt', 'report.txt']) {
    await createFile(session.server, account.token, `the text of ${name}\n`, { name, type: 'text/plain' });
  }
  // One page for every journey here (openPage is per test: its screenshot hook needs a test).
  context = await session.browser.newContext({ ...WITHOUT_SERVICE_WORKER, baseURL: session.server.url, viewport: DESKTOP.viewport });
  await context.addInitScript((token) => window.localStorage.setItem('token', token), account.token);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: session.server.url });
  page = await context.newPage();
  page.setDefaultTimeout(10_000);
  await page.goto('/dashboard');
  await tile(page, 'report.txt').waitFor();
});
afterAll(() => context?.close());
beforeEach(() => {
  onTestFailed(async ({ task }) => {
    await mkdir(shots, { recursive: true });
    await page.screenshot({ path: path.join(shots, `${task.name.replace(/\W+/g, '-')}.png`), fullPage: true }).catch(() => {});
  });
});

describe('sharing a file (issue 36)', () => {
  it('makes a link with an expiry and a password, shows it on reopening with a person added, and removes it', async () => {
    await openShareDialog('report.txt');
    const dialog = shareDialog();
    await dialog.getByLabel('Link expires').selectOption({ label: 'After 7 days' });
    await dialog.getByLabel('Password (optional)').fill('open sesame');
    await dialog.getByLabel('Password (optional)').press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await toast('Share link copied!').waitFor();
    const link = await page.evaluate(() => navigator.clipboard.readText());

    // Reopened: the link is there, protected, and a person is added beside it.
    await openShareDialog('report.txt');
    const shared = dialog.getByRole('list', { name: 'Links' });
    await shared.getByRole('listitem', { name: 'Public link' }).getByText('Password').waitFor();
    expect(await shared.getByRole('listitem', { name: 'Public link' }).textContent()).toContain(link);
    await dialog.getByRole('radio', { name: /A specific person/ }).check();
    await dialog.getByLabel('E-mail address', { exact: true }).fill('friend@example.com');
    await dialog.getByLabel('E-mail address', { exact: true }).press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await toast('File shared with friend@example.com').waitFor();

    await openShareDialog('report.txt');
    await dialog.getByRole('list', { name: 'People with access' }).getByRole('listitem', { name: 'friend@example.com' }).waitFor();
    await shared.getByRole('listitem', { name: 'Public link' }).waitFor();
    expect(await auditEverywhere('Share File')).toEqual([]);
    await screenshot('share-file-desktop');
    await page.setViewportSize(PHONE.viewport);
    await screenshot('share-file-phone');
    await page.setViewportSize(DESKTOP.viewport);

    await shared.getByRole('button', { name: 'Remove the link' }).click();
    await toast('Share removed').waitFor();
    await shared.getByRole('listitem', { name: 'Public link' }).waitFor({ state: 'detached' });
    // Focus stays in the dialog once the row and its button are gone.
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    const { shares } = await callApi<SharesResponse>(session.server, account.token, 'GET', '/shares');
    expect(shares.map(({ kind, itemType, name, email }) => ({ kind, itemType, name, email }))).toEqual([
      { kind: 'private', itemType: 'file', name: 'report.txt', email: 'friend@example.com' },
    ]);
    expect((await fetch(link.replace(/\/s\//, '/api/public/shares/'))).status).toBe(404);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });
});

describe('the viewer (issue 36)', () => {
  it('opens by double click with nothing selected, and on a phone moves by its buttons and by a swipe', async () => {
    await tile(page, 'a-notes.txt').dblclick();
    await viewer('a-notes.txt').getByText('the text of a-notes.txt').waitFor();
    const selected = () => page.evaluate(() => window.getSelection()?.toString());
    expect(await selected()).toBe('');
    // Nor does a double click on its title bar paint the name blue.
    await viewer('a-notes.txt').getByRole('heading', { name: 'a-notes.txt' }).dblclick();
    expect(await selected()).toBe('');
    expect(await auditEverywhere('Viewer')).toEqual([]);

    await page.setViewportSize(PHONE.viewport);
    const next = viewer('a-notes.txt').getByRole('button', { name: 'Next file' });
    expect(await next.isVisible()).toBe(true);
    await next.click();
    await viewer('b-notes.txt').getByText('the text of b-notes.txt').waitFor();
    expect(await viewer('b-notes.txt').getByRole('button', { name: 'Previous file' }).isVisible()).toBe(true);
    await screenshot('viewer-phone');

    // A finger from right to left: the next file.
    await swipe({ x: 330, y: 450 }, { x: 60, y: 460 });
    await viewer('c-notes.txt').getByText('the text of c-notes.txt').waitFor();
    await swipe({ x: 60, y: 450 }, { x: 330, y: 440 });
    await viewer('b-notes.txt').waitFor();

    await page.keyboard.press('Escape');
    await viewer('b-notes.txt').waitFor({ state: 'detached' });
    await page.setViewportSize(DESKTOP.viewport);
  });
});

describe('the Move dialog (issue 36)', () => {
  it('makes a folder inside the one browsed, goes into it, and moves the file there', async () => {
    const archive = await createFolder(session.server, account.token, 'Archive');
    await page.reload();
    await tile(page, 'c-notes.txt').hover();
    await tile(page, 'c-notes.txt').getByRole('button', { name: 'More actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Move to…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move “c-notes.txt”' });
    await dialog.getByRole('button', { name: 'Open Archive' }).click();
    await dialog.getByText('My Files / Archive', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'New folder' }).click();
    await dialog.getByLabel('New folder name').fill('Fresh');
    await screenshot('move-new-folder');
    await dialog.getByLabel('New folder name').press('Enter');
    await dialog.getByText('My Files / Archive / Fresh', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Move here' }).click();
    await dialog.waitFor({ state: 'detached' });
    await toast('Moved to Fresh').waitFor();

    const [fresh] = await listFolders(session.server, account.token, archive.id);
    expect(fresh?.name).toBe('Fresh');
    expect((await listFiles(session.server, account.token, fresh!.id)).map((file) => file.originalName)).toEqual(['c-notes.txt']);
  });
});

describe('the activity list (issue 36)', () => {
  it("names the file of a link, of a person's share and of a move", async () => {
    await page.goto('/profile');
    await page.getByRole('tab', { name: 'Activity' }).click();
    await page.getByText('Created a share link for the file report.txt').waitFor();
    await page.getByText('Shared the file report.txt with friend@example.com').waitFor();
    await page.getByText(/^Uploaded report\.txt \(/).waitFor();
    await page.getByText('Moved the file c-notes.txt', { exact: true }).waitFor();
  });
});
