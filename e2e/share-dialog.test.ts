import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Share, SharesResponse } from '@cloudvault/contract/shares';
import { createUser } from '@cloudvault/test-support/accounts';
import { subscribe } from '@cloudvault/test-support/checkout';
import { createFolder } from '@cloudvault/test-support/drive';
import { callApi } from '@cloudvault/test-support/running-server';
import { violationsInEachTheme, VIEWPORTS } from './helpers/axe.ts';
import { openPage } from './helpers/browser.ts';
import { tile } from './helpers/drive.ts';
import { verifyViaOutbox } from './helpers/outbox.ts';
import { useE2eSession } from './helpers/session.ts';

/**
 * The share dialog of issue 38, as the owner of a folder uses it: a person added as Editor,
 * changed to Viewer and removed from "People with access"; a file request (upload link) with
 * its message and a link with a download limit, whose limit is then changed without changing
 * its address; at desktop and phone size, by keyboard alone, with no axe violations.
 */
const session = useE2eSession('share-dialog');
const PHONE = VIEWPORTS[1].viewport;

const toast = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text }).first();
const shareDialog = (page: Page) => page.getByRole('dialog', { name: 'Share Folder' });

async function ownerWithFolder(name: string) {
  const owner = await createUser(session.server, { firstName: 'Ada', lastName: 'Lovelace' });
  // A paid plan: the dialog also offers a link's lifetime and password.
  await subscribe(session.server, owner.token, 'PRO');
  const folder = await createFolder(session.server, owner.token, name);
  const { page, context } = await openPage(session.browser, session.server.url, { token: owner.token });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: session.server.url });
  return { owner, folder, page, context };
}

async function openShareDialog(page: Page, name: string): Promise<Locator> {
  await tile(page, name).hover();
  await tile(page, name).getByRole('button', { name: 'Share folder' }).click();
  const dialog = shareDialog(page);
  await dialog.waitFor();
  return dialog;
}

async function sharesOf(token: string, itemId: string): Promise<Share[]> {
  const { shares } = await callApi<SharesResponse>(session.server, token, 'GET', '/shares');
  return shares.filter((share) => share.itemId === itemId);
}

describe('the share dialog (issue 38)', () => {
  it('adds a person as Editor, changes them to Viewer and removes them; makes a file request and a limited link, and changes the limit keeping the address', async () => {
    const { owner, folder, page, context } = await ownerWithFolder('Team');
    const friend = await createUser(session.server, { firstName: 'Grace' });
    await verifyViaOutbox(session.server, friend.email);
    await page.goto('/dashboard');

    // A person, as Editor.
    let dialog = await openShareDialog(page, 'Team');
    await dialog.getByRole('radio', { name: /A specific person/ }).check();
    await dialog.getByLabel('E-mail address', { exact: true }).fill(friend.email);
    await dialog.getByLabel('Role', { exact: true }).selectOption({ label: 'Editor' });
    await dialog.getByRole('button', { name: 'Share', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await toast(page, `Folder shared with ${friend.email}`).waitFor();
    expect((await sharesOf(owner.token, folder.id)).map(({ kind, email, role }) => ({ kind, email, role }))).toEqual([
      { kind: 'private', email: friend.email, role: 'editor' },
    ]);

    // People with access: the owner first, then the person, whose role menu says Editor.
    dialog = await openShareDialog(page, 'Team');
    const people = dialog.getByRole('list', { name: 'People with access' });
    await people.getByRole('listitem', { name: 'Ada Lovelace (you)' }).getByText('Owner').waitFor();
    const person = people.getByRole('listitem', { name: friend.email });
    const role = person.getByRole('combobox', { name: `Role of ${friend.email}` });
    expect(await role.inputValue()).toBe('editor');
    expect(await person.getByRole('checkbox', { name: 'May share further' }).isChecked()).toBe(false);

    await role.selectOption({ label: 'Viewer' });
    await toast(page, `${friend.email} is now Viewer`).waitFor();
    expect((await sharesOf(owner.token, folder.id)).map((share) => share.role)).toEqual(['viewer']);
    await person.getByRole('checkbox', { name: 'May share further' }).check();
    await expect.poll(async () => (await sharesOf(owner.token, folder.id))[0]?.mayReshare).toBe(true);

    await role.selectOption({ label: 'Remove access' });
    await toast(page, `${friend.email} no longer has access`).waitFor();
    await person.waitFor({ state: 'detached' });
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    expect(await sharesOf(owner.token, folder.id)).toEqual([]);

    // A file request: an upload link with a message for its visitors.
    await dialog.getByLabel('Visitors can').selectOption({ label: 'Upload only — file request' });
    await dialog.getByText('Visitors can send you files but see nothing else in the folder.').waitFor();
    await dialog.getByLabel('Message to visitors (optional)').fill('Your receipts for March, please');
    await dialog.getByRole('button', { name: 'Share', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await toast(page, 'Public link copied to clipboard').waitFor();
    const uploadUrl = await page.evaluate(() => navigator.clipboard.readText());

    // A link that stops after 3 downloads.
    dialog = await openShareDialog(page, 'Team');
    expect(await dialog.getByLabel('Visitors can').inputValue()).toBe('view');
    await dialog.getByLabel('Download limit (optional)').fill('0');
    await dialog.getByRole('button', { name: 'Share', exact: true }).click();
    await dialog.getByText('Enter a whole number of at least 1, or leave it empty').waitFor();
    await dialog.getByLabel('Download limit (optional)').fill('3');
    await dialog.getByRole('button', { name: 'Share', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await toast(page, 'Public link copied to clipboard').waitFor();

    let links = await sharesOf(owner.token, folder.id);
    const upload = links.find((share) => share.role === 'upload');
    const limited = links.find((share) => share.role === 'view');
    expect(upload).toMatchObject({ kind: 'link', shareUrl: uploadUrl, message: 'Your receipts for March, please', downloadLimit: null });
    expect(limited).toMatchObject({ kind: 'link', downloadLimit: 3 });

    // Each link with its role, limit and counts; the limit changed in place.
    dialog = await openShareDialog(page, 'Team');
    const rows = dialog.getByRole('list', { name: 'Links' }).getByRole('listitem', { name: 'Public link' });
    await expect.poll(() => rows.count()).toBe(2);
    const uploadRow = rows.filter({ hasText: 'Upload only — file request' });
    await uploadRow.getByText('0 uploads').waitFor();
    // The row is found by its address, which the change keeps.
    const limitedRow = rows.filter({ hasText: limited?.shareUrl ?? 'none' });
    await limitedRow.getByText('Stops after 3 downloads').waitFor();
    await limitedRow.getByRole('button', { name: 'Change link settings' }).click();
    const settings = limitedRow.getByRole('form', { name: 'Change link settings' });
    expect(await settings.getByLabel('Download limit (optional)').inputValue()).toBe('3');
    await settings.getByLabel('Download limit (optional)').fill('10');
    await settings.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Link settings saved; its address stays the same').waitFor();
    await limitedRow.getByText('Stops after 10 downloads').waitFor();

    links = await sharesOf(owner.token, folder.id);
    expect(links.find((share) => share.id === limited?.id)).toMatchObject({ downloadLimit: 10, shareUrl: limited?.shareUrl, role: 'view' });
    expect(links).toHaveLength(2);

    // The open dialog, with a link's settings unfolded, has no axe violations in either theme.
    await limitedRow.getByRole('button', { name: 'Change link settings' }).click();
    expect(await violationsInEachTheme(page, { label: 'Share Folder', scope: '[role="dialog"]' })).toEqual([]);
    await context.close();
  });

  it('fits a phone: every part of the dialog is reached without scrolling sideways', async () => {
    const { owner, folder, page, context } = await ownerWithFolder('Photos');
    const friend = await createUser(session.server, { firstName: 'Lin' });
    await verifyViaOutbox(session.server, friend.email);
    await callApi(session.server, owner.token, 'POST', `/user/folders/${folder.id}/share`, {
      shareType: 'private',
      email: friend.email,
      role: 'editor',
    });
    await callApi(session.server, owner.token, 'POST', `/user/folders/${folder.id}/share`, { shareType: 'public', downloadLimit: 5 });
    await page.setViewportSize(PHONE);
    await page.goto('/dashboard');

    await tile(page, 'Photos').getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Share folder' }).click();
    const dialog = shareDialog(page);
    await dialog.waitFor();
    const row = dialog.getByRole('list', { name: 'Links' }).getByRole('listitem', { name: 'Public link' });
    await row.getByRole('button', { name: 'Change link settings' }).click();
    const controls = [
      dialog.getByRole('radio', { name: /A specific person/ }),
      dialog.getByLabel('Visitors can').first(),
      dialog.getByRole('combobox', { name: `Role of ${friend.email}` }),
      dialog.getByRole('checkbox', { name: 'May share further' }),
      row.getByRole('button', { name: 'Remove the link' }),
      row.getByRole('form', { name: 'Change link settings' }).getByRole('button', { name: 'Save' }),
      dialog.getByText('Activity', { exact: true }),
      dialog.getByRole('button', { name: 'Share', exact: true }),
    ];
    for (const control of controls) {
      await control.scrollIntoViewIfNeeded();
      const box = await control.boundingBox();
      expect(box, 'each control is drawn').not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    }
    // Nothing scrolls sideways: not the page, not the dialog's scrolling body.
    const sideways = await dialog.evaluate((element) =>
      [document.documentElement, ...Array.from(element.querySelectorAll<HTMLElement>('*'))]
        .filter((part) => ['auto', 'scroll'].includes(getComputedStyle(part).overflowX) || part === document.documentElement)
        .filter((part) => part.scrollWidth > part.clientWidth + 1)
        .map((part) => part.className),
    );
    expect(sideways).toEqual([]);
    await context.close();
  });

  it('is used by keyboard alone: a person added as Editor, then Escape gives the focus back', async () => {
    const { owner, folder, page, context } = await ownerWithFolder('Letters');
    const friend = await createUser(session.server, { firstName: 'Mary' });
    await verifyViaOutbox(session.server, friend.email);
    await page.goto('/dashboard');

    const opener = tile(page, 'Letters').getByRole('button', { name: 'Share folder' });
    await tile(page, 'Letters').hover();
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = shareDialog(page);
    await dialog.waitFor();
    const focused = () =>
      page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '');

    // The focus starts inside; Tab reaches the choice of who, the arrows pick a person.
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Tab');
    expect(
      await dialog.getByRole('radio', { name: /Anyone with the link/ }).evaluate((element) => element === document.activeElement),
    ).toBe(true);
    await page.keyboard.press('ArrowDown');
    expect(await dialog.getByRole('radio', { name: /A specific person/ }).isChecked()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await dialog.getByLabel('E-mail address', { exact: true }).evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.type(friend.email);
    await page.keyboard.press('Tab');
    const role = dialog.getByLabel('Role', { exact: true });
    expect(await role.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.press('ArrowDown');
    expect(await role.inputValue()).toBe('editor');
    // Back to the address: Enter shares.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await toast(page, `Folder shared with ${friend.email}`).waitFor();
    expect((await sharesOf(owner.token, folder.id)).map((share) => share.role)).toEqual(['editor']);

    // Reopened by keyboard: Tab stays inside (the trap), Escape closes and the opener has the focus again.
    await tile(page, 'Letters').hover();
    await opener.focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    for (let press = 0; press < 25; press += 1) {
      await page.keyboard.press('Tab');
      expect(
        await dialog.evaluate((element) => element.contains(document.activeElement)),
        `Tab ${press + 1} stays inside (${await focused()})`,
      ).toBe(true);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => opener.evaluate((element) => element === document.activeElement), { timeout: 5000 }).toBe(true);
    await context.close();
  });
});
