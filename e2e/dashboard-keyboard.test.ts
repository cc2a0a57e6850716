import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFile, createFolder } from '@cloudvault/test-support/drive';
import { THEMES } from './helpers/axe.ts';
import { openPage } from './helpers/browser.ts';
import { tile, waitForFocusedTile } from './helpers/drive.ts';
import { useE2eSession } from './helpers/session.ts';

const session = useE2eSession('dashboard-keyboard');

/** Presses `key` until `predicate` holds for the focused element (a bounded number of times): reaching something by keyboard. */
async function pressUntilFocused(page: Page, key: string, predicate: (element: Element) => boolean): Promise<void> {
  for (let presses = 0; presses < 40; presses += 1) {
    await page.keyboard.press(key);
    if (await page.evaluate(`(${predicate.toString()})(document.activeElement ?? document.body)`)) return;
  }
  throw new Error(`${key} never reached the element wanted`);
}

/** What has the focus, described for an assertion message. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return 'body';
    return `${element.tagName.toLowerCase()}[role=${element.getAttribute('role')}] ${element.textContent?.trim().slice(0, 40)}`;
  });

/**
 * The focused element's outline as a person sees it: drawn (style, width) and its contrast
 * with what is behind it, colours read back through a canvas so any CSS colour syntax works.
 */
const focusIndicator = (page: Page) =>
  page.evaluate(async () => {
    const element = document.activeElement as HTMLElement;
    // The ring fades in with the element's colour transition: read it once drawn.
    await Promise.all(element.getAnimations().map((animation) => animation.finished));
    const style = getComputedStyle(element);
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    const context = canvas.getContext('2d', { willReadFrequently: true })!;
    const rgb = (color: string) => {
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = color;
      context.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = context.getImageData(0, 0, 1, 1).data;
      return { r: r!, g: g!, b: b!, a: a! };
    };
    const luminance = ({ r, g, b }: { r: number; g: number; b: number }) => {
      const channel = (value: number) => {
        const c = value / 255;
        return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    // The first opaque background at or above the element is what the outline is drawn on.
    let background = rgb('white');
    for (let node: Element | null = element; node; node = node.parentElement) {
      const color = rgb(getComputedStyle(node).backgroundColor);
      if (color.a === 255) {
        background = color;
        break;
      }
    }
    const outline = rgb(style.outlineColor);
    const [lighter, darker] = [luminance(outline), luminance(background)].sort((a, b) => b - a);
    return {
      style: style.outlineStyle,
      width: parseFloat(style.outlineWidth),
      opaque: outline.a === 255,
      contrast: Math.round(((lighter! + 0.05) / (darker! + 0.05)) * 100) / 100,
    };
  });

async function expectVisibleFocus(page: Page): Promise<void> {
  const indicator = await focusIndicator(page);
  expect(indicator, await focused(page)).toMatchObject({ style: 'solid', opaque: true });
  expect(indicator.width).toBeGreaterThanOrEqual(2);
  // WCAG 1.4.11: a focus indicator is a user-interface component's state, 3:1 against its surroundings.
  expect(indicator.contrast).toBeGreaterThanOrEqual(3);
}

describe('the dashboard by keyboard alone', () => {
  it('opens a folder, goes back, opens a row menu and renames, with the focus landing on something sensible each time', async () => {
    const account = await createUser(session.server, { firstName: 'Kay' });
    const projects = await createFolder(session.server, account.token, 'Projects');
    const drafts = await createFolder(session.server, account.token, 'Drafts', projects.id);
    await createFile(session.server, account.token, 'minutes', { name: 'minutes.txt', type: 'text/plain', folderId: projects.id });
    await createFile(session.server, account.token, 'hello', { name: 'notes.txt', type: 'text/plain' });
    const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });
    await page.goto('/dashboard');
    await tile(page, 'notes.txt').waitFor();

    // Tab reaches the grid (one tab stop, on its first item).
    await pressUntilFocused(page, 'Tab', (element) => element.getAttribute('role') === 'gridcell');
    await waitForFocusedTile(page, 'Projects');
    await expectVisibleFocus(page);

    // Enter opens the folder: the focus lands on its first item, not on <body>.
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('folder') === projects.id);
    await waitForFocusedTile(page, 'Drafts');

    // An empty folder: its heading takes the focus and says so.
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('folder') === drafts.id);
    await page.waitForFunction(() => document.activeElement?.textContent === 'This folder is empty');

    // Back (the browser's): the focus lands on the folder just left.
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get('folder') === projects.id);
    await waitForFocusedTile(page, 'Drafts');

    // The breadcrumb to My Files, by keyboard: the focus lands on the folder we came out of.
    await pressUntilFocused(page, 'Shift+Tab', (element) => element.textContent === 'My Files' && element.tagName === 'A');
    await expectVisibleFocus(page);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => !url.searchParams.has('folder'));
    await waitForFocusedTile(page, 'Projects');

    // The arrows move to the file; Tab enters its actions; the menu opens on its first item with a visible ring.
    await page.keyboard.press('ArrowRight');
    await waitForFocusedTile(page, 'notes.txt');
    await pressUntilFocused(page, 'Tab', (element) => element.getAttribute('aria-label') === 'More actions');
    await page.keyboard.press('Enter');
    await page.getByRole('menu', { name: 'More actions' }).waitFor();
    expect(await focused(page)).toMatch(/^button\[role=menuitem\] Download/);
    await expectVisibleFocus(page);

    // Type-ahead to Rename; Enter opens the dialog on the name; a new name and Enter rename.
    await page.keyboard.press('r');
    expect(await focused(page)).toMatch(/\[role=menuitem\] Rename/);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Rename' });
    await dialog.waitFor();
    await page.waitForFunction(() => document.activeElement?.tagName === 'INPUT');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('memo.txt');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await tile(page, 'memo.txt').waitFor();
    // Back where the person was: inside the renamed file's cell (its menu button).
    await page.waitForFunction(() => document.activeElement?.closest('[role="gridcell"]')?.querySelector('p')?.textContent === 'memo.txt');
    await context.close();
  });

  it.each(THEMES)('shows a visible focus ring on menu items, the row menu and the account menu, in the %s theme', async (theme) => {
    const account = await createUser(session.server, { firstName: 'Ray' });
    await createFile(session.server, account.token, 'hello', { name: 'notes.txt', type: 'text/plain' });
    const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });
    await page.emulateMedia({ colorScheme: theme });
    await page.goto('/dashboard');
    await tile(page, 'notes.txt').waitFor();

    await pressUntilFocused(page, 'Tab', (element) => element.getAttribute('aria-label') === 'Account menu');
    await expectVisibleFocus(page);
    await page.keyboard.press('Enter');
    await page.getByRole('menu', { name: 'Account menu' }).waitFor();
    for (const item of ['Profile', 'Subscription', 'Settings', 'Recent', 'Starred', 'Sign out']) {
      expect(await focused(page)).toContain(item);
      await expectVisibleFocus(page);
      await page.keyboard.press('ArrowDown');
    }
    await page.keyboard.press('Escape');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Account menu');

    await pressUntilFocused(page, 'Tab', (element) => element.getAttribute('aria-label') === 'More actions');
    await page.keyboard.press('ArrowDown');
    await page.getByRole('menu', { name: 'More actions' }).waitFor();
    for (let item = 0; item < 3; item += 1) {
      await expectVisibleFocus(page);
      await page.keyboard.press('ArrowDown');
    }
    await context.close();
  });
});
