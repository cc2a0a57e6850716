import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFile, createFolder, listFiles } from '@cloudvault/test-support/drive';
import { THEMES, violationsOf } from './helpers/axe.ts';
import { openPage } from './helpers/browser.ts';
import { downloadedBytes, readZip, tile } from './helpers/drive.ts';
import { useE2eSession } from './helpers/session.ts';

const session = useE2eSession('file-manager-selection');

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** The names of the selected items, in the order shown. */
const selectedNames = (page: Page) =>
  page.$$eval('[role="gridcell"][aria-selected="true"]', (cells) => cells.map((cell) => cell.querySelector('p')?.textContent ?? ''));

const selectionBar = (page: Page) => page.getByRole('toolbar', { name: 'Selected items' });

/** The focused element's accessible name or text, for checking where the focus went. */
const focusedText = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    return element?.getAttribute('aria-label') ?? element?.querySelector('p')?.textContent ?? element?.textContent?.trim() ?? '';
  });

/** Nothing focused: the page's own keys, not an item's. */
const blur = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

/** Axe on one part of the page in both themes, at the page's current size. */
async function auditBothThemes(page: Page, scope: string, label: string, found: string[]) {
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    found.push(...(await violationsOf(page, { label: `${label} (${theme})`, scope })));
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

async function centerOf(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not on screen');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** A drive of three folders (one holding a file) and four files; one page signed in at desktop size. */
async function seeded() {
  const account = await createUser(session.server, { firstName: 'Sel' });
  const alpha = await createFolder(session.server, account.token, 'Alpha');
  await createFolder(session.server, account.token, 'Beta');
  const target = await createFolder(session.server, account.token, 'Target');
  await createFile(session.server, account.token, 'inside alpha', { name: 'inner.txt', folderId: alpha.id });
  for (const name of ['a.txt', 'b.txt', 'c.txt', 'd.txt']) await createFile(session.server, account.token, `content of ${name}`, { name });
  const { page, context } = await openPage(session.browser, session.server.url, { token: account.token, viewport: DESKTOP });
  await page.goto('/dashboard');
  await tile(page, 'd.txt').waitFor();
  return { account, target, page, context };
}

describe('file manager: selection, its bar, context menus and keys', () => {
  it('selects by Shift-click range, Ctrl+A, a drag box and clears with Escape; the bar downloads a zip, copies, stars and deletes', async () => {
    const { account, target, page, context } = await seeded();
    const found: string[] = [];

    // A click, then Shift-click: the range between them in the order shown.
    await tile(page, 'a.txt').click();
    await tile(page, 'c.txt').click({ modifiers: ['Shift'] });
    await expect.poll(() => selectedNames(page)).toEqual(['a.txt', 'b.txt', 'c.txt']);
    await selectionBar(page).getByText('3 selected').waitFor();
    await page.getByText('3 items selected').waitFor({ state: 'attached' });
    await auditBothThemes(page, '[role="toolbar"]', 'selection bar, desktop', found);

    // Escape clears; Ctrl+A selects everything shown, and says so.
    await page.keyboard.press('Escape');
    await expect.poll(() => selectedNames(page)).toEqual([]);
    await selectionBar(page).waitFor({ state: 'detached' });
    await page.keyboard.press('ControlOrMeta+a');
    await expect.poll(() => selectedNames(page)).toEqual(['Alpha', 'Beta', 'Target', 'a.txt', 'b.txt', 'c.txt', 'd.txt']);
    await page.getByText('7 items selected').waitFor({ state: 'attached' });

    // The bar's Download: one zip of the selection, each folder as its subtree.
    const download = page.waitForEvent('download');
    await selectionBar(page).getByRole('button', { name: 'Download' }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toMatch(/^CloudVault \d{4}-\d{2}-\d{2}\.zip$/);
    const entries = await readZip(await downloadedBytes(saved));
    expect([...entries.keys()].sort()).toEqual(['Alpha/', 'Alpha/inner.txt', 'Beta/', 'Target/', 'a.txt', 'b.txt', 'c.txt', 'd.txt']);
    expect((entries.get('Alpha/inner.txt') as Buffer).toString()).toBe('inside alpha');

    // A box drawn from the listing's margin, level with d.txt, to the middle of Beta takes what it touches.
    await page.keyboard.press('Escape');
    const areaBox = (await page.getByRole('grid').locator('..').boundingBox())!;
    const start = { x: areaBox.x + 6, y: (await centerOf(tile(page, 'd.txt'))).y };
    const end = await centerOf(tile(page, 'Beta'));
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    await page.mouse.move((start.x + end.x) / 2, (start.y + end.y) / 2, { steps: 4 });
    await page.mouse.move(end.x, end.y, { steps: 4 });
    await page.mouse.up();
    const touched = await page.$$eval(
      '[role="gridcell"]',
      (cells, box) =>
        cells
          .filter((cell) => {
            const rect = cell.getBoundingClientRect();
            return rect.left <= box.right && box.left <= rect.right && rect.top <= box.bottom && box.top <= rect.bottom;
          })
          .map((cell) => cell.querySelector('p')?.textContent ?? ''),
      { left: Math.min(start.x, end.x), right: Math.max(start.x, end.x), top: Math.min(start.y, end.y), bottom: Math.max(start.y, end.y) },
    );
    expect(touched).toEqual(expect.arrayContaining(['Alpha', 'Beta']));
    expect(touched).not.toContain('Target');
    await expect.poll(() => selectedNames(page)).toEqual(touched);

    // Copy to another folder: the copy appears there, the original stays.
    await tile(page, 'a.txt').click();
    await expect.poll(() => selectedNames(page)).toEqual(['a.txt']);
    await selectionBar(page).getByRole('button', { name: 'Copy' }).click();
    const copyDialog = page.getByRole('dialog', { name: 'Copy “a.txt”' });
    await copyDialog.getByRole('button', { name: 'Open Target' }).click();
    await copyDialog.getByText('My Files / Target').waitFor();
    await copyDialog.getByRole('button', { name: 'Copy here' }).click();
    await page.getByText('Copied to Target').waitFor();
    expect((await listFiles(session.server, account.token, target.id)).map((file) => file.originalName)).toEqual(['a.txt']);
    await tile(page, 'a.txt').waitFor();

    // Star: the item is starred, and the bar offers to remove the star.
    await selectionBar(page).getByRole('button', { name: 'Star' }).click();
    await selectionBar(page).getByRole('button', { name: 'Remove star' }).waitFor();
    await expect
      .poll(async () => {
        const response = await fetch(`${session.server.url}/api/starred`, { headers: { authorization: `Bearer ${account.token}` } });
        return ((await response.json()) as { files: Array<{ originalName: string }> }).files.map((file) => file.originalName);
      })
      .toEqual(['a.txt']);

    // Delete of several: one confirmation for both.
    await tile(page, 'c.txt').click();
    await tile(page, 'd.txt').click({ modifiers: ['ControlOrMeta'] });
    await selectionBar(page).getByRole('button', { name: 'Delete' }).click();
    const deleteDialog = page.getByRole('dialog', { name: 'Delete 2 items' });
    await deleteDialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await deleteDialog.waitFor({ state: 'detached' });
    await tile(page, 'c.txt').waitFor({ state: 'detached' });
    await tile(page, 'd.txt').waitFor({ state: 'detached' });
    expect((await listFiles(session.server, account.token)).map((file) => file.originalName).sort()).toEqual(['a.txt', 'b.txt']);

    expect(found).toEqual([]);
    await context.close();
  });

  it('opens context menus by right-click and Shift+F10, and answers ?, /, F2 and Ctrl+C / Ctrl+V', async () => {
    const { account, target, page, context } = await seeded();
    const found: string[] = [];

    // Right-click: the item's menu at the pointer, on its first entry; arrows move; Escape gives the focus back.
    await tile(page, 'b.txt').click({ button: 'right' });
    const itemMenu = page.getByRole('menu', { name: 'Actions for b.txt' });
    await itemMenu.waitFor();
    const entries = await itemMenu.getByRole('menuitem').allTextContents();
    expect(entries.slice(0, 7)).toEqual(['Open', 'Download', 'Share', 'Rename', 'Move to…', 'Copy to…', 'Star']);
    expect(entries.at(-1)).toBe('Delete');
    expect(await focusedText(page)).toBe('Open');
    await page.keyboard.press('ArrowDown');
    expect(await focusedText(page)).toBe('Download');
    await auditBothThemes(page, '[role="menu"]', 'context menu, desktop', found);
    await page.keyboard.press('Escape');
    await itemMenu.waitFor({ state: 'detached' });
    expect(await focusedText(page)).toBe('b.txt');

    // Shift+F10 on the focused item: its menu beside it; the arrows reach Rename, Enter opens it.
    await page.keyboard.press('Shift+F10');
    await itemMenu.waitFor();
    for (let step = 0; step < 3; step += 1) await page.keyboard.press('ArrowDown');
    expect(await focusedText(page)).toBe('Rename');
    await page.keyboard.press('Enter');
    const rename = page.getByRole('dialog', { name: 'Rename' });
    await rename.waitFor();
    await page.keyboard.press('Escape');
    await rename.waitFor({ state: 'detached' });

    // Shift+F10 with no item focused: the folder's own menu.
    await blur(page);
    await page.keyboard.press('Shift+F10');
    const folderMenu = page.getByRole('menu', { name: 'Folder actions' });
    expect(await folderMenu.getByRole('menuitem').allTextContents()).toEqual(['New folder', 'Upload files', 'Upload folder']);
    await page.keyboard.press('Escape');
    await folderMenu.waitFor({ state: 'detached' });

    // "?" lists the shortcuts; "/" goes to the search.
    await page.keyboard.press('?');
    const shortcuts = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await shortcuts.getByText('Select a range').waitFor();
    await auditBothThemes(page, '[role="dialog"]', 'shortcuts dialog, desktop', found);
    await page.keyboard.press('Escape');
    await shortcuts.waitFor({ state: 'detached' });
    await blur(page);
    await page.keyboard.press('/');
    await page.waitForFunction(() => document.activeElement?.getAttribute('type') === 'search');
    await blur(page);

    // F2 renames the one selected item.
    await tile(page, 'a.txt').click();
    await blur(page);
    await page.keyboard.press('F2');
    await rename.waitFor();
    await rename.getByRole('textbox').fill('renamed.txt');
    await rename.getByRole('textbox').press('Enter');
    await tile(page, 'renamed.txt').waitFor();

    // Ctrl+C here, Ctrl+V in Target: a copy there, the original stays.
    await tile(page, 'b.txt').click();
    await page.keyboard.press('ControlOrMeta+c');
    await page.getByText('1 item copied').waitFor();
    await tile(page, 'Target').dblclick();
    await page.waitForURL((url) => url.searchParams.get('folder') === target.id);
    await page.getByText('This folder is empty').waitFor();
    await blur(page);
    await page.keyboard.press('ControlOrMeta+v');
    await tile(page, 'b.txt').waitFor();
    expect((await listFiles(session.server, account.token)).map((file) => file.originalName).sort()).toContain('b.txt');
    expect((await listFiles(session.server, account.token, target.id)).map((file) => file.originalName)).toEqual(['b.txt']);

    // The background's right-click menu offers the clipboard's items.
    const area = page.getByRole('grid').locator('..');
    const areaBox = (await area.boundingBox())!;
    await page.mouse.click(areaBox.x + 6, areaBox.y + areaBox.height - 6, { button: 'right' });
    await page.getByRole('menu', { name: 'Folder actions' }).getByRole('menuitem', { name: 'Paste 1 item' }).waitFor();
    await page.keyboard.press('Escape');

    // At phone size (the same page): the bar fits, and the menu and the dialog stay inside the screen.
    await page.goBack();
    await tile(page, 'b.txt').waitFor();
    await page.setViewportSize(PHONE);
    await blur(page);
    await page.keyboard.press('ControlOrMeta+a');
    const bar = selectionBar(page);
    await bar.getByText('7 selected').waitFor();
    for (const button of await bar.getByRole('button').all()) {
      const box = (await button.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    }
    await auditBothThemes(page, '[role="toolbar"]', 'selection bar, phone', found);
    await page.keyboard.press('Escape');
    await tile(page, 'renamed.txt').click({ button: 'right' });
    const phoneMenu = page.getByRole('menu', { name: 'Actions for renamed.txt' });
    await phoneMenu.waitFor();
    const menuBox = (await phoneMenu.boundingBox())!;
    expect(menuBox.x + menuBox.width).toBeLessThanOrEqual(PHONE.width);
    expect(menuBox.y + menuBox.height).toBeLessThanOrEqual(PHONE.height);
    await auditBothThemes(page, '[role="menu"]', 'context menu, phone', found);
    await page.keyboard.press('Escape');
    await blur(page);
    await page.keyboard.press('?');
    await shortcuts.waitFor();
    await auditBothThemes(page, '[role="dialog"]', 'shortcuts dialog, phone', found);
    await page.keyboard.press('Escape');

    expect(found).toEqual([]);
    await context.close();
  });

  it('starts selecting with a long press on a phone, after which taps toggle', async () => {
    const account = await createUser(session.server, { firstName: 'Tap' });
    for (const name of ['one.txt', 'two.txt', 'three.txt']) await createFile(session.server, account.token, name, { name });
    const { page, context } = await openPage(session.browser, session.server.url, { token: account.token, viewport: PHONE, mobile: true });
    await page.goto('/dashboard');
    await tile(page, 'two.txt').waitFor();

    // A touch held still on one.txt: selected once the press is long enough, then lifted.
    const cdp = await context.newCDPSession(page);
    const held = await centerOf(tile(page, 'one.txt'));
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: held.x, y: held.y }] });
    await expect.poll(() => selectedNames(page), { timeout: 5000 }).toEqual(['one.txt']);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await selectionBar(page).getByText('1 selected').waitFor();

    // Now a tap toggles instead of opening the viewer.
    const tapped = await centerOf(tile(page, 'two.txt'));
    await page.touchscreen.tap(tapped.x, tapped.y);
    await expect.poll(() => selectedNames(page)).toEqual(['one.txt', 'two.txt']);
    await selectionBar(page).getByText('2 selected').waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await context.close();
  });
});
