import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { CurrentSubscriptionResponse } from '@cloudvault/contract/subscriptions';
import { createUser, uniqueEmail } from '@cloudvault/test-support/accounts';
import { subscribe } from '@cloudvault/test-support/checkout';
import { THEMES, VIEWPORTS, violationsOf } from './helpers/axe.ts';
import { openPage } from './helpers/browser.ts';
import { pressToolbarButton, tile } from './helpers/drive.ts';
import { useE2eSession } from './helpers/session.ts';

/**
 * Issue 36: a change between paid plans asks first, with the prorated price; toasts stay out
 * of the way of the header, the verification banner and the storage card, at most three and
 * grouped; and they follow the language chosen in Settings.
 */
const session = useE2eSession('plan-change-toasts');

const [DESKTOP, PHONE] = VIEWPORTS;
/** The toasts showing (one leaving after a fourth came is not counted). */
const shownToasts = (page: Page) => page.locator('[data-toast="shown"] [role="status"]');
const toast = (page: Page, text: string) => shownToasts(page).filter({ hasText: text }).first();
const storageUpgrade = (page: Page) => page.getByRole('region', { name: 'Storage', exact: true }).getByRole('link', { name: 'Upgrade' });
const resend = (page: Page) =>
  page.getByRole('complementary').filter({ hasText: 'Verify your e-mail' }).getByRole('button', { name: 'Resend' });

async function currentViaApi(token: string): Promise<CurrentSubscriptionResponse> {
  const response = await fetch(`${session.server.url}/api/subscriptions/current`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as CurrentSubscriptionResponse;
}

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Every toast showing stays clear of each control given (those on screen), and there are at most three. */
async function expectToastsClear(page: Page, label: string, controls: Locator[]): Promise<void> {
  const toasts = await shownToasts(page).all();
  expect(toasts.length, label).toBeLessThanOrEqual(3);
  // A toast that leaves (its time is up) between the count and its measure covers nothing.
  const measure = (item: Locator) => item.boundingBox({ timeout: 1000 }).catch(() => null);
  const boxes = (await Promise.all(toasts.map(measure))).filter((box) => box !== null);
  for (const control of controls) {
    if ((await control.count()) === 0) continue;
    const target = await control.first().boundingBox();
    if (!target) continue;
    for (const box of boxes) expect(overlaps(box, target), `${label}: a toast covers ${control.toString()}`).toBe(false);
  }
}

/** The dialog's figure for a label (dt → dd). */
const figure = (dialog: Locator, label: string) => dialog.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');

describe('a change between paid plans', () => {
  it('asks first with the prorated price (from the storage card too); Cancel changes nothing, Confirm charges what was shown', async () => {
    const account = await createUser(session.server);
    await subscribe(session.server, account.token, 'PRO');
    const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });

    // The storage card's Upgrade leads to the subscription page, whose plan cards ask first.
    await page.goto('/dashboard');
    await storageUpgrade(page).click();
    await page.waitForURL(/\/subscription$/);
    await page.getByRole('heading', { level: 2, name: 'Pro', exact: true }).waitFor();

    for (const { name, viewport } of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await page.getByRole('tab', { name: 'Plans' }).click();
      await page.getByRole('button', { name: 'Upgrade to Business' }).click();
      const dialog = page.getByRole('dialog', { name: 'Upgrade to Business' });
      await figure(dialog, 'Charged now').waitFor();
      expect(await figure(dialog, 'New price').textContent()).toBe('$19.99/month');
      expect(await figure(dialog, 'Charged now').textContent()).toMatch(/^\$\d+\.\d\d \(prorated for the \d+ days left\)$/);
      expect(await figure(dialog, 'Next renewal').textContent()).toMatch(/^\w{3} \d+, \d{4}: \$19\.99$/);
      const box = await dialog.boundingBox();
      expect(box!.x >= 0 && box!.x + box!.width <= viewport.width, `${name}: the dialog fits the width`).toBe(true);
      for (const theme of THEMES) {
        await page.emulateMedia({ colorScheme: theme });
        expect(await violationsOf(page, { label: `${name} ${theme}`, scope: '[role="dialog"]' })).toEqual([]);
      }
      await page.emulateMedia({ colorScheme: 'light' });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
    }
    expect((await currentViaApi(account.token)).plan).toBe('PRO');

    // Confirm (still at phone size): the plan changes, charged exactly what the dialog said.
    await page.getByRole('button', { name: 'Upgrade to Business' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upgrade to Business' });
    const charged = (await figure(dialog, 'Charged now').textContent())!.match(/^\$(\d+\.\d\d)/)![1];
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await toast(page, 'Subscription updated successfully!').waitFor();
    await dialog.waitFor({ state: 'detached' });
    const after = await currentViaApi(account.token);
    expect(after.plan).toBe('PREMIUM');
    expect(after.billingHistory[0]!.amount.toFixed(2)).toBe(charged);
    await context.close();
  });
});

describe('toasts', () => {
  it('stay clear of the header, the banner and the storage card, at most three, grouped, at both sizes', async () => {
    // Registered through the form: the welcome toast and the verification banner arrive together.
    const { page, context } = await openPage(session.browser, session.server.url);
    await page.goto('/register');
    await page.getByLabel('First name').fill('Grace');
    await page.getByLabel('Last name').fill('Hopper');
    await page.getByLabel('E-mail').fill(uniqueEmail());
    await page.getByLabel('Password', { exact: true }).fill('cobol-1959');
    await page.getByLabel('Confirm password').fill('cobol-1959');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await toast(page, 'Account created successfully! Welcome to CloudVault').waitFor();
    await resend(page).waitFor();
    const controls = [page.getByRole('banner'), resend(page), storageUpgrade(page)];
    await expectToastsClear(page, 'welcome', controls);

    for (const { name, viewport } of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      // This size's folders sort first, so that on a phone their tiles are above the toasts.
      const prefix = name === 'phone' ? 'A phone' : 'B desktop';
      // Three folders in a row: one toast that counts them.
      let dialog;
      for (const number of [1, 2, 3]) {
        await pressToolbarButton(page, 'New Folder');
        dialog = page.getByRole('dialog', { name: 'Create New Folder' });
        await dialog.getByLabel('Folder name').fill(`${prefix} ${number}`);
        await dialog.getByRole('button', { name: 'Create' }).click();
        await dialog.waitFor({ state: 'detached' });
      }
      await toast(page, '3 folders created').waitFor();
      await expectToastsClear(page, `${name} grouped`, controls);

      // Three more quick actions, each with a toast of its own: never more than three show.
      await resend(page).click();
      await toast(page, 'We sent a new link to').waitFor();
      await expectToastsClear(page, `${name} resend`, controls);

      await tile(page, `${prefix} 1`).hover();
      await tile(page, `${prefix} 1`).getByRole('button', { name: 'More actions' }).click();
      await page.getByRole('menuitem', { name: 'Rename' }).click();
      dialog = page.getByRole('dialog', { name: 'Rename' });
      await dialog.getByLabel('New name').fill(`${prefix} 1 renamed`);
      await dialog.getByRole('button', { name: 'Rename' }).click();
      await toast(page, `Renamed to “${prefix} 1 renamed”`).waitFor();
      await expectToastsClear(page, `${name} rename`, controls);

      await tile(page, `${prefix} 1 renamed`).hover();
      await tile(page, `${prefix} 1 renamed`).getByRole('button', { name: 'Delete folder', exact: true }).click();
      await page.getByRole('dialog', { name: 'Delete Folder' }).getByRole('button', { name: 'Delete Folder' }).click();
      await toast(page, 'Folder deleted successfully').waitFor();
      await expectToastsClear(page, `${name} delete`, controls);

      // The next size starts with none showing (a toast under the pointer would stay).
      await page.mouse.move(0, 0);
      await shownToasts(page).first().waitFor({ state: 'detached', timeout: 15_000 });
    }

    // On a phone an upload's toast stacks above the uploads panel, clear of its buttons.
    const file = path.join(session.workDir, 'note.txt');
    await writeFile(file, 'a note');
    await page.getByRole('button', { name: 'Upload', exact: true }).first().click();
    await page.getByRole('dialog', { name: 'Upload Files' }).getByLabel('Upload files', { exact: true }).setInputFiles(file);
    await toast(page, '1 file uploaded successfully!').waitFor();
    await expectToastsClear(page, 'upload', [...controls, page.getByRole('region', { name: 'Uploads' })]);
    await context.close();
  });

  it('follow the language: after switching to Deutsch the settings toast is German', async () => {
    const account = await createUser(session.server);
    const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });
    await page.goto('/settings');
    await page.getByLabel('Language').selectOption('de');
    await toast(page, 'Einstellungen erfolgreich aktualisiert').waitFor();
    expect(await shownToasts(page).filter({ hasText: 'Settings updated successfully' }).count()).toBe(0);
    await context.close();
  });
});
