import path from 'node:path';
import Database from 'better-sqlite3';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createUser, uniqueEmail } from '@cloudvault/test-support/accounts';
import { subscribe } from '@cloudvault/test-support/checkout';
import { createFile, createFolder } from '@cloudvault/test-support/drive';
import { callApi } from '@cloudvault/test-support/running-server';
import { VIEWPORTS, violationsInEachTheme } from './helpers/axe.ts';
import { openPage } from './helpers/browser.ts';
import { sessionOperator } from './helpers/operator.ts';
import { useE2eSession } from './helpers/session.ts';

// An operator is an account whose verified address is listed in ADMIN_EMAILS.
const operatorEmail = uniqueEmail();
const session = useE2eSession('accessibility-console-share', { ADMIN_EMAILS: operatorEmail });

/** Three minutes: each test audits several pages in both themes on a shared two-core machine. */
const AUDIT_TIMEOUT = 180_000;

/**
 * The page's (or `scope`'s) violations in both themes, each named by `where` and its theme: the
 * theme switches in place, so each page and dialog is brought up once for both.
 */
const violationsAt = (page: Page, where: string, scope?: string) => violationsInEachTheme(page, { label: where, scope });

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });

/** The operator, registered and verified once for the file. */
const signedInOperator = sessionOperator(session, operatorEmail);

/**
 * Moves a share's expiry into the past in the server's database, as the passing of its 24
 * hours would: the server then answers its link with 410.
 */
function expireShares(folderId: string): void {
  const database = new Database(path.join(session.server.dataDir, 'cloudvault.sqlite'));
  try {
    database.pragma('busy_timeout = 5000');
    database.prepare('UPDATE shares SET expires_at = ? WHERE folder_id = ?').run('2000-01-01T00:00:00.000Z', folderId);
  } finally {
    database.close();
  }
}

/** A Pro owner's links: a file, a folder, a password-protected folder and an expired one. */
async function sharedLinks() {
  const owner = await createUser(session.server);
  await subscribe(session.server, owner.token, 'PRO');
  const file = await createFile(session.server, owner.token, 'The minutes of the meeting\n', { name: 'minutes.txt', type: 'text/plain' });
  const holiday = await createFolder(session.server, owner.token, 'Holiday');
  await createFile(session.server, owner.token, 'Packing list\n', { name: 'packing.txt', type: 'text/plain', folderId: holiday.id });
  await createFolder(session.server, owner.token, 'Photos', holiday.id);
  const vault = await createFolder(session.server, owner.token, 'Vault');
  const old = await createFolder(session.server, owner.token, 'Old trip');
  const share = (url: string, body: object) =>
    callApi<{ shareUrl: string }>(session.server, owner.token, 'POST', url, body).then((answer) => answer.shareUrl);
  const links = {
    file: await share(`/files/${file.id}/share`, { expiresIn: 24 }),
    folder: await share(`/user/folders/${holiday.id}/share`, { shareType: 'public' }),
    locked: await share(`/user/folders/${vault.id}/share`, { shareType: 'public', expiresIn: 24, password: 'open sesame' }),
    expired: await share(`/user/folders/${old.id}/share`, { shareType: 'public', expiresIn: 24 }),
  };
  expireShares(old.id);
  return links;
}

describe.each(VIEWPORTS)('at $name size', ({ viewport, mobile }) => {
  describe('in the light and the dark theme', () => {
    it('the operator console and its confirm dialogs have no axe violations', { timeout: AUDIT_TIMEOUT }, async () => {
      const admin = await signedInOperator();
      const target = await createUser(session.server, { firstName: 'Grace', lastName: 'Hopper' });
      const { page, context } = await openPage(session.browser, session.server.url, { token: admin.token, viewport, mobile });
      const found: string[] = [];

      await page.goto('/admin');
      await heading(page, 'Overview').waitFor();
      await page.getByRole('region', { name: 'Health' }).getByText('Database').waitFor();
      found.push(...(await violationsAt(page, 'overview')));

      await page.goto('/admin/users');
      await heading(page, 'Users').waitFor();
      // A table from tablet width up, cards on a phone: whichever shows.
      await page
        .getByRole('link', { name: /Grace Hopper/ })
        .filter({ visible: true })
        .first()
        .waitFor();
      found.push(...(await violationsAt(page, 'users')));

      await page.goto(`/admin/users/${target.user.id}`);
      await heading(page, 'Grace Hopper').waitFor();
      found.push(...(await violationsAt(page, 'user detail')));
      const actions = [
        ['Suspend', 'Suspend this account?'],
        ['Grant a plan', 'Grant a plan free of charge'],
        ['Resend verification', 'Resend the verification e-mail?'],
        ['Send password reset', 'Send a password reset?'],
        ['Delete account', 'Delete this account?'],
      ] as const;
      for (const [button, title] of actions) {
        const opener = page.getByRole('button', { name: button, exact: true });
        await opener.click();
        const dialog = page.getByRole('dialog', { name: title });
        await dialog.waitFor();
        found.push(...(await violationsAt(page, title, '[role="dialog"]')));
        if (button === 'Suspend') {
          // Without the reason it asks for: the error state is audited too.
          await dialog.getByRole('button', { name: 'Suspend account' }).click();
          await dialog.getByLabel('Reason').and(page.locator('[aria-invalid="true"]')).waitFor();
          found.push(...(await violationsAt(page, `${title} (no reason)`, '[role="dialog"]')));
        }
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        // React gives focus back in the effect after the dialog leaves the page: a moment later.
        await expect
          .poll(() => opener.evaluate((element) => element === document.activeElement), { message: `focus returns to ${button}` })
          .toBe(true);
      }

      // Done for real, so the undoing dialogs show and the audit log has rows.
      const confirm = async (button: string, title: string, fill: (dialog: Locator) => Promise<void>, submit: string) => {
        await page.getByRole('button', { name: button, exact: true }).click();
        const dialog = page.getByRole('dialog', { name: title });
        await fill(dialog);
        await dialog.getByRole('button', { name: submit }).click();
        await dialog.waitFor({ state: 'detached' });
      };
      await confirm('Suspend', 'Suspend this account?', (dialog) => dialog.getByLabel('Reason').fill('Audit test'), 'Suspend account');
      await confirm(
        'Grant a plan',
        'Grant a plan free of charge',
        async (dialog) => {
          await dialog.getByLabel('Plan').selectOption('PREMIUM');
          await dialog.getByLabel('Ends on').fill('2099-12-31');
          await dialog.getByLabel('Reason').fill('Audit test');
        },
        'Grant plan',
      );
      for (const [button, title] of [
        ['Unsuspend', 'Unsuspend this account?'],
        ['End granted plan', 'End the granted plan now?'],
      ] as const) {
        await page.getByRole('button', { name: button, exact: true }).click();
        const dialog = page.getByRole('dialog', { name: title });
        await dialog.waitFor();
        found.push(...(await violationsAt(page, title, '[role="dialog"]')));
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
      }

      await page.goto('/admin/audit');
      await heading(page, 'Audit log').waitFor();
      // A table from tablet width up, a list of cards on a phone: whichever shows.
      await page.getByRole('link', { name: target.email }).filter({ visible: true }).first().waitFor();
      found.push(...(await violationsAt(page, 'audit log')));

      await context.close();
      expect(found).toEqual([]);
    });

    it('the public share pages (file, folder, password, expired) have no axe violations', { timeout: AUDIT_TIMEOUT }, async () => {
      const links = await sharedLinks();
      const { page, context } = await openPage(session.browser, session.server.url, { viewport, mobile });
      const found: string[] = [];

      await page.goto(links.file);
      await heading(page, 'minutes.txt').waitFor();
      found.push(...(await violationsAt(page, 'file link')));

      await page.goto(links.folder);
      await heading(page, 'Holiday').waitFor();
      await page.getByRole('list', { name: 'Folder contents' }).getByRole('listitem', { name: 'packing.txt' }).waitFor();
      found.push(...(await violationsAt(page, 'folder link')));

      await page.goto(links.locked);
      const password = page.getByLabel('Password', { exact: true });
      await password.waitFor();
      found.push(...(await violationsAt(page, 'password form')));
      await password.fill('nope');
      await password.press('Enter');
      await page.getByRole('alert').filter({ hasText: 'Wrong password' }).waitFor();
      found.push(...(await violationsAt(page, 'password form, wrong password')));
      await password.fill('open sesame');
      await password.press('Enter');
      await heading(page, 'Vault').waitFor();
      found.push(...(await violationsAt(page, 'unlocked folder link')));

      await page.goto(links.expired);
      await heading(page, 'This link has expired').waitFor();
      found.push(...(await violationsAt(page, 'expired link')));

      await context.close();
      expect(found).toEqual([]);
    });

    it('the error pages (unknown link, page not found, missing item) have no axe violations', { timeout: AUDIT_TIMEOUT }, async () => {
      const account = await createUser(session.server);
      const { page, context } = await openPage(session.browser, session.server.url, { token: account.token, viewport, mobile });
      const found: string[] = [];

      await page.goto('/s/no-such-link');
      await heading(page, /.+/).waitFor();
      found.push(...(await violationsAt(page, 'unknown link')));

      // /admin is a page that does not exist for anyone but an operator.
      await page.goto('/admin');
      await heading(page, 'Page not found').waitFor();
      found.push(...(await violationsAt(page, 'page not found')));

      await page.goto('/dashboard?view=no-such-file');
      await page.getByRole('dialog').waitFor();
      found.push(...(await violationsAt(page, 'missing file', '[role="dialog"]')));

      await context.close();
      expect(found).toEqual([]);
    });
  });
});
