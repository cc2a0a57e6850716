import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFile, createFolder } from '@cloudvault/test-support/drive';
import { VIEWPORTS, violationsInEachTheme } from './helpers/axe.ts';
import { openPage } from './helpers/browser.ts';
import { useE2eSession } from './helpers/session.ts';

// Starred and Recent (docs/api.md#starred, docs/api.md#recent): reached from the header on a
// desktop and from the account menu on a phone, a file opening in the viewer and a folder in
// My Files, at both sizes and axe-clean in both themes. One user and one page for the file.

const session = useE2eSession('starred-recent');
const [desktop, phone] = VIEWPORTS;

let page: Page;
let closePage: (() => Promise<void>) | undefined;
let token: string;
beforeAll(async () => {
  ({ token } = await createUser(session.server, { firstName: 'Sam' }));
});
afterAll(() => closePage?.());

/** The file's one page, opened by the first test that needs it (openPage registers its screenshot on failure within a test). */
async function openOnce(): Promise<void> {
  if (closePage) return;
  const opened = await openPage(session.browser, session.server.url, { token });
  page = opened.page;
  closePage = () => opened.context.close();
}

const star = (type: 'file' | 'folder', id: string) =>
  fetch(`${session.server.url}/api/starred/${type}/${id}`, { method: 'PUT', headers: { authorization: `Bearer ${token}` } });
const viewer = (name: string) => page.getByRole('dialog', { name: `Viewer: ${name}` });
const row = (name: string) => page.getByRole('listitem', { name, exact: true });

/** Goes to a view the way its screen size offers: the header's link on a desktop, the account menu on a phone. */
async function goTo(view: 'Recent' | 'Starred', size: 'desktop' | 'phone'): Promise<void> {
  if (size === 'desktop') {
    await page.getByRole('navigation', { name: 'Your files' }).getByRole('link', { name: view }).click();
  } else {
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menu', { name: 'Account menu' }).getByRole('menuitem', { name: view }).click();
  }
  await page.getByRole('heading', { level: 1, name: view }).waitFor();
}

describe('Starred and Recent', () => {
  it('lists starred items, opens a file in the viewer and a folder in My Files, and unstars one', async () => {
    const projects = await createFolder(session.server, token, 'Projects');
    const plan = await createFile(session.server, token, 'the plan', { name: 'plan.txt', type: 'text/plain', folderId: projects.id });
    await createFile(session.server, token, 'not starred', { name: 'loose.txt', type: 'text/plain' });
    expect((await star('folder', projects.id)).status).toBe(204);
    expect((await star('file', plan.id)).status).toBe(204);

    await openOnce();
    await page.setViewportSize(desktop.viewport);
    await page.goto('/dashboard');
    await goTo('Starred', 'desktop');
    const list = page.getByRole('list', { name: 'Starred items' });
    await list.getByRole('listitem').first().waitFor();
    expect(await list.getByRole('listitem').evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')))).toEqual([
      'Projects',
      'plan.txt',
    ]);
    expect(await violationsInEachTheme(page, { label: 'starred (desktop)' })).toEqual([]);

    await page.getByRole('button', { name: 'View plan.txt' }).click();
    await viewer('plan.txt').waitFor();
    await page.keyboard.press('Escape');
    await viewer('plan.txt').waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Remove the star from plan.txt' }).click();
    await row('plan.txt').waitFor({ state: 'detached' });
    await page.getByText('Removed the star from plan.txt').waitFor();

    await page.setViewportSize(phone.viewport);
    await page.goto('/dashboard');
    await goTo('Starred', 'phone');
    await row('Projects').waitFor();
    expect(await violationsInEachTheme(page, { label: 'starred (phone)' })).toEqual([]);
    await row('Projects').getByRole('link').click();
    await page.waitForURL(`**/dashboard?folder=${projects.id}`);
  });

  it('shows files opened, uploaded or changed across folders, newest first, with a way to their folder', async () => {
    const reports = await createFolder(session.server, token, 'Reports');
    await createFile(session.server, token, 'older', { name: 'older.txt', type: 'text/plain' });
    const report = await createFile(session.server, token, 'q4', { name: 'q4 report.txt', type: 'text/plain', folderId: reports.id });

    await openOnce();
    await page.setViewportSize(desktop.viewport);
    await page.goto('/dashboard');
    await goTo('Recent', 'desktop');
    const names = () =>
      page
        .getByRole('list', { name: 'Recent files' })
        .getByRole('listitem')
        .evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')));
    await row('q4 report.txt').waitFor();
    expect((await names()).slice(0, 2)).toEqual(['q4 report.txt', 'older.txt']);
    await row('q4 report.txt').getByText('In Reports').waitFor();
    expect(await violationsInEachTheme(page, { label: 'recent (desktop)' })).toEqual([]);

    // Opened in the viewer: first when Recent is shown again.
    await page.getByRole('button', { name: 'View older.txt' }).click();
    await viewer('older.txt').getByText('older', { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await page.reload();
    await row('older.txt').waitFor();
    await expect.poll(async () => (await names())[0]).toBe('older.txt');

    await page.setViewportSize(phone.viewport);
    await page.goto('/dashboard');
    await goTo('Recent', 'phone');
    await row('q4 report.txt').waitFor();
    expect(await violationsInEachTheme(page, { label: 'recent (phone)' })).toEqual([]);
    await row('q4 report.txt').getByRole('link', { name: 'Show in folder q4 report.txt' }).click();
    await page.waitForURL(`**/dashboard?folder=${reports.id}`);
    expect(report.folderId).toBe(reports.id);
  });
});
