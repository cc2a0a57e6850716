import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createUser, DEFAULT_PASSWORD } from '@cloudvault/test-support/accounts';
import { subscribe } from '@cloudvault/test-support/checkout';
import { createFile, createFolder } from '@cloudvault/test-support/drive';
import { callApi } from '@cloudvault/test-support/running-server';
import { totpCode } from '../apps/server/src/lib/totp.ts';
import { VIEWPORTS, violationsInEachTheme } from './helpers/axe.ts';
import { openPage } from './helpers/browser.ts';
import { pressToolbarButton, tile } from './helpers/drive.ts';
import { makePdf, makePicture, requireFfmpeg } from './helpers/media-files.ts';
import { useE2eSession } from './helpers/session.ts';

const session = useE2eSession('accessibility-dialogs');

const dialogNamed = (page: Page, name: string) => page.getByRole('dialog', { name, exact: true });

const made = { photo: '', pdf: '' };
beforeAll(async () => {
  requireFfmpeg();
  made.photo = makePicture(session.workDir, 'photo.png', '640x480');
  made.pdf = await makePdf(session.workDir, 'report.pdf');
});

/**
 * An account with one file of each kind the viewer draws, a folder shared by link and a file
 * in Trash; on Business unless `free` (a paid plan's link options make the Share File dialog,
 * and Business keeps earlier versions for the version history to list).
 */
async function fullAccount({ free = false } = {}) {
  const account = await createUser(session.server, { firstName: 'Ada', lastName: 'Lovelace' });
  if (!free) await subscribe(session.server, account.token, 'PREMIUM');
  const folder = await createFolder(session.server, account.token, 'Projects');
  const put = (content: Parameters<typeof createFile>[2], name: string, type: string) =>
    createFile(session.server, account.token, content, { name, type });
  const files = {
    image: await put({ path: made.photo }, 'photo.png', 'image/png'),
    pdf: await put({ path: made.pdf }, 'report.pdf', 'application/pdf'),
    // Uploaded twice: the first one is kept as a version.
    text: await put('First draft\n', 'notes.txt', 'text/plain').then(() => put('First line\nSecond line\n', 'notes.txt', 'text/plain')),
    other: await put('PK not really', 'archive.zip', 'application/zip'),
  };
  const draft = await put('scrap this', 'draft.txt', 'text/plain');
  await callApi(session.server, account.token, 'DELETE', `/files/${draft.id}`);
  await callApi(session.server, account.token, 'POST', `/user/folders/${folder.id}/share`, { shareType: 'public' });
  return { account, files };
}

/**
 * The open dialog's violations in both themes, each named by `label` and its theme: the theme
 * switches in place, so each dialog is opened once for both.
 */
const dialogViolations = (page: Page, label: string) => violationsInEachTheme(page, { label, scope: '[role="dialog"]' });

/** Whether keyboard focus is inside the dialog (and so visible to a keyboard user there). */
const focusInside = (dialog: Locator) => dialog.evaluate((element) => element.contains(document.activeElement));

/**
 * Whether the focused element looks focused: its outline, ring (box-shadow), border or
 * background differ from the same element unfocused.
 */
function focusIsVisible(page: Page): Promise<boolean> {
  return page.evaluate(async () => {
    const element = document.activeElement;
    if (!(element instanceof HTMLElement) || element === document.body) return false;
    // After the colour transitions: mid-way the look is still the one before.
    const look = async () => {
      await Promise.all(element.getAnimations().map((animation) => animation.finished));
      const style = getComputedStyle(element);
      return [style.outlineStyle, style.outlineWidth, style.outlineColor, style.boxShadow, style.borderColor, style.backgroundColor].join(
        '|',
      );
    };
    const focused = await look();
    element.blur();
    const unfocused = await look();
    element.focus();
    return focused !== unfocused;
  });
}

/** How long focus may take to come back after a dialog closes, as Playwright's own waits allow. */
const FOCUS_RETURN_TIMEOUT = 5_000;

/**
 * Opens a dialog with `open`, checks focus went in and stays in on Tab, audits it and checks
 * the focused control shows its focus in each theme (one switch of theme a dialog), closes it
 * with Escape and checks focus is back on the page rather than lost on <body>.
 */
async function auditDialog(
  page: Page,
  found: string[],
  name: string,
  open: () => Promise<void>,
  whileOpen?: (dialog: Locator) => Promise<void>,
) {
  await open();
  const dialog = dialogNamed(page, name);
  await dialog.waitFor();
  expect(await focusInside(dialog), `focus moves into “${name}”`).toBe(true);
  await page.keyboard.press('Tab');
  expect(await focusInside(dialog), `Tab stays inside “${name}”`).toBe(true);
  found.push(
    ...(await violationsInEachTheme(page, {
      label: name,
      scope: '[role="dialog"]',
      inEachTheme: async (theme) =>
        expect(await focusIsVisible(page), `the focused control of “${name}” shows its focus in the ${theme} theme`).toBe(true),
    })),
  );
  if (whileOpen) await whileOpen(dialog);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  // React gives focus back in the effect after the dialog leaves the page: a moment later,
  // which on the shared two-core CI machine once took longer than expect.poll's default second.
  await expect
    .poll(() => page.evaluate(() => document.activeElement !== document.body), {
      message: `focus returns from “${name}”`,
      timeout: FOCUS_RETURN_TIMEOUT,
    })
    .toBe(true);
}

/** The tile's own button, reached as a pointer user would (the row actions show on hover). */
async function tileButton(page: Page, name: string, button: string) {
  await tile(page, name).hover();
  await tile(page, name).getByRole('button', { name: button, exact: true }).click();
}

async function tileMenu(page: Page, name: string, entry: string) {
  await tileButton(page, name, 'More actions');
  await page.getByRole('menuitem', { name: entry }).click();
}

/** Three minutes: each test opens several dialogs and runs axe on each in both themes on a shared two-core machine. */
const AUDIT_TIMEOUT = 180_000;

describe.each(VIEWPORTS)('dialogs at $name size', ({ viewport, mobile }) => {
  describe('in the light and the dark theme', () => {
    /** A fresh account's page in this size, and the list of violations found. */
    async function audited(options: { free?: boolean } = {}) {
      const { account, files } = await fullAccount(options);
      const { page, context } = await openPage(session.browser, session.server.url, { token: account.token, viewport, mobile });
      return { account, page, context, files, found: [] as string[] };
    }

    it("the file manager's dialogs have no axe violations and work by keyboard", { timeout: AUDIT_TIMEOUT }, async () => {
      const { page, context, found } = await audited();
      await page.goto('/dashboard');
      await tile(page, 'notes.txt').waitFor();
      await auditDialog(page, found, 'Upload Files', () => page.getByRole('button', { name: 'Upload', exact: true }).click());
      await auditDialog(page, found, 'Create New Folder', () => pressToolbarButton(page, 'New Folder'));
      await auditDialog(page, found, 'Rename', () => tileMenu(page, 'notes.txt', 'Rename'));
      await auditDialog(page, found, 'Move “notes.txt”', () => tileMenu(page, 'notes.txt', 'Move to…'));
      await auditDialog(page, found, 'Delete File', () => tileButton(page, 'notes.txt', 'Delete'));
      await auditDialog(page, found, 'Delete Folder', () => tileButton(page, 'Projects', 'Delete folder'));
      await auditDialog(page, found, 'Share File', () => tileButton(page, 'notes.txt', 'Share'));
      await auditDialog(
        page,
        found,
        'Share Folder',
        () => tileButton(page, 'Projects', 'Share folder'),
        async (dialog) => {
          // The private choice adds the e-mail field: audited too.
          await dialog.getByRole('radio', { name: /A specific person/ }).check();
          await dialog.getByLabel('E-mail address', { exact: true }).waitFor();
          found.push(...(await dialogViolations(page, 'Share Folder (private)')));
        },
      );
      await auditDialog(page, found, 'Version history', () => tileMenu(page, 'notes.txt', 'Version history'));
      await context.close();
      expect(found).toEqual([]);
    });

    it('the viewer of each kind of file, and version history above it, have no axe violations', { timeout: AUDIT_TIMEOUT }, async () => {
      const { page, context, files, found } = await audited();
      for (const file of Object.values(files)) {
        await page.goto(`/dashboard?view=${file.id}`);
        const viewer = dialogNamed(page, `Viewer: ${file.originalName}`);
        await viewer.waitFor();
        if (file === files.image) await viewer.locator('img').first().waitFor();
        if (file === files.pdf) await viewer.locator('canvas').first().waitFor();
        if (file === files.text) await viewer.getByText('Second line').waitFor();
        found.push(...(await dialogViolations(page, `Viewer: ${file.originalName}`)));
      }
      // Version history above the viewer, listing the earlier version; Escape closes only the
      // top dialog: the viewer stays.
      await page.goto(`/dashboard?view=${files.text.id}`);
      const viewer = dialogNamed(page, `Viewer: ${files.text.originalName}`);
      await auditDialog(
        page,
        found,
        'Version history',
        () => viewer.getByRole('button', { name: 'Version history' }).click(),
        async (dialog) => {
          await dialog
            .getByRole('list', { name: 'Versions' })
            .getByRole('listitem', { name: /^Version of / })
            .waitFor();
          found.push(...(await dialogViolations(page, 'Version history (listed)')));
        },
      );
      await viewer.waitFor();
      await context.close();
      expect(found).toEqual([]);
    });

    it('the Trash, shares and subscription dialogs have no axe violations', { timeout: AUDIT_TIMEOUT }, async () => {
      // Free: the overview offers Upgrade Plan only to an account without a plan.
      const { account, page, context, found } = await audited({ free: true });
      await page.goto('/trash');
      await page.getByRole('button', { name: 'Empty Trash' }).waitFor();
      await auditDialog(page, found, 'Delete “draft.txt” forever?', () =>
        page.getByRole('button', { name: 'Delete forever draft.txt' }).click(),
      );
      await auditDialog(page, found, 'Empty Trash?', () => page.getByRole('button', { name: 'Empty Trash' }).click());

      await page.goto('/shares');
      await auditDialog(page, found, 'Revoke the share of “Projects”?', () =>
        page.getByRole('button', { name: 'Revoke share of Projects' }).click(),
      );

      await page.goto('/subscription');
      await auditDialog(page, found, 'Upgrade Your Plan', () => page.getByRole('button', { name: 'Upgrade Plan' }).click());
      // Cancelling is offered to a paying account.
      await subscribe(session.server, account.token, 'PRO');
      await page.reload();
      await auditDialog(page, found, 'Cancel Subscription', () => page.getByRole('button', { name: 'Cancel subscription' }).click());
      await context.close();
      expect(found).toEqual([]);
    });

    it(
      'the settings dialogs (account deletion, app passwords, two-factor) have no axe violations',
      { timeout: AUDIT_TIMEOUT },
      async () => {
        const { page, context, found } = await audited();
        await page.goto('/settings');
        await auditDialog(page, found, 'Delete your account?', () => page.getByRole('button', { name: 'Delete Account' }).click());
        const devices = page.getByRole('region', { name: 'Devices and app passwords' });
        await devices.getByLabel('Device name').fill('Laptop');
        await auditDialog(page, found, 'Create an app password for Laptop', () =>
          devices.getByRole('button', { name: 'Create app password' }).click(),
        );
        await auditDialog(page, found, 'App password for Laptop', async () => {
          await devices.getByRole('button', { name: 'Create app password' }).click();
          const confirm = dialogNamed(page, 'Create an app password for Laptop');
          await confirm.getByLabel('Your password').fill(DEFAULT_PASSWORD);
          await confirm.getByRole('button', { name: 'Create', exact: true }).click();
        });
        await auditDialog(page, found, 'Revoke Laptop?', () => devices.getByRole('button', { name: 'Revoke Laptop' }).click());

        // Two-factor: the set-up, the recovery codes, then the turn-off dialog.
        const twoFactor = page.getByRole('switch', { name: 'Two-factor authentication' });
        await twoFactor.click();
        const setup = dialogNamed(page, 'Configure two-factor authentication');
        await setup.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
        found.push(...(await dialogViolations(page, 'Configure two-factor authentication')));
        const secret = (await setup.locator('code').textContent())?.trim() ?? '';
        await setup.getByLabel('Authentication code').fill(totpCode(secret, new Date()));
        await setup.getByRole('button', { name: 'Turn On' }).click();
        const codes = dialogNamed(page, 'Save your recovery codes');
        await codes.getByRole('list', { name: 'Recovery codes' }).waitFor();
        found.push(...(await dialogViolations(page, 'Save your recovery codes')));
        await codes.getByRole('button', { name: "I've saved them" }).click();
        await page.waitForFunction(() => document.querySelector('[role="switch"][aria-checked="true"]') !== null);
        await auditDialog(page, found, 'Turn off two-factor authentication', () => twoFactor.click());
        await context.close();
        expect(found).toEqual([]);
      },
    );
  });
});

describe('the upload dialog by keyboard alone', () => {
  it('cycles Tab and Shift+Tab inside, closes on Escape after tabbing around, and gives focus back to its opener', async () => {
    const account = await createUser(session.server);
    const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });
    await page.goto('/dashboard');
    await page.getByText('Your cloud is empty').waitFor();
    const opener = page.getByRole('button', { name: 'Upload', exact: true });
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = dialogNamed(page, 'Upload Files');
    const zone = dialog.getByRole('button', { name: 'Upload files' });
    await zone.getByText('Drag and drop files here, or click to browse').waitFor();

    const close = dialog.getByRole('button', { name: 'Close' });
    const folder = dialog.getByRole('button', { name: 'Upload folder' });
    const isFocused = (target: Locator) => target.evaluate((element) => element === document.activeElement);
    const focusOrder = async (key: string, steps: number) => {
      const order: string[] = [];
      for (let step = 0; step < steps; step += 1) {
        await page.keyboard.press(key);
        order.push(
          (await isFocused(zone)) ? 'zone' : (await isFocused(close)) ? 'close' : (await isFocused(folder)) ? 'folder' : 'elsewhere',
        );
      }
      return order;
    };
    // Close, then the drop zone (its file inputs are skipped), Upload folder, and round again: never outside.
    expect(await isFocused(close)).toBe(true);
    expect(await focusOrder('Tab', 4)).toEqual(['zone', 'folder', 'close', 'zone']);
    expect(await focusOrder('Shift+Tab', 3)).toEqual(['close', 'folder', 'zone']);

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => opener.evaluate((element) => element === document.activeElement)).toBe(true);
    await context.close();
  });
});
