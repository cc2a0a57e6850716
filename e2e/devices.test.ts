import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createUser, DEFAULT_PASSWORD } from '@cloudvault/test-support/accounts';
import { openPage } from './helpers/browser.ts';
import { tile } from './helpers/drive.ts';
import { useE2eSession } from './helpers/session.ts';

const session = useE2eSession('devices');
const run = promisify(execFile);

/**
 * Debian's rclone against the app's /dav/, configured on the fly through its environment
 * (the password obscured, as rclone wants it); one try, so a refusal shows at once.
 */
async function rclone(args: string[], credentials: { user: string; password: string }): Promise<{ ok: boolean; output: string }> {
  const { stdout: obscured } = await run('rclone', ['obscure', credentials.password]);
  const env = {
    ...process.env,
    RCLONE_CONFIG: '/dev/null',
    RCLONE_WEBDAV_URL: `${session.server.url}/dav/`,
    RCLONE_WEBDAV_VENDOR: 'owncloud',
    RCLONE_WEBDAV_USER: credentials.user,
    RCLONE_WEBDAV_PASS: obscured.trim(),
  };
  try {
    const { stdout, stderr } = await run('rclone', [...args, '--retries', '1', '--low-level-retries', '1'], { env });
    return { ok: true, output: stdout + stderr };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

const devicesSection = (page: Page) => page.getByRole('region', { name: 'Devices and app passwords' });

/** Creates an app password in Settings, confirmed with the account password, and reads what the dialog shows once. */
async function createInSettings(page: Page, name: string) {
  const section = devicesSection(page);
  await section.getByLabel('Device name').fill(name);
  await section.getByRole('button', { name: 'Create app password' }).click();
  const confirm = page.getByRole('dialog', { name: `Create an app password for ${name}` });
  // A wrong password is said under its field, and nothing is made.
  await confirm.getByLabel('Your password').fill('not my password');
  await confirm.getByRole('button', { name: 'Create', exact: true }).click();
  await confirm.getByRole('alert').filter({ hasText: 'That password is not right.' }).waitFor();
  await confirm.getByLabel('Your password').fill(DEFAULT_PASSWORD);
  await confirm.getByRole('button', { name: 'Create', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `App password for ${name}` });
  await dialog.waitFor();
  return {
    dialog,
    password: await dialog.getByRole('textbox', { name: 'App password' }).inputValue(),
    serverUrl: await dialog.getByRole('textbox', { name: 'Server address (WebDAV)' }).inputValue(),
    userName: await dialog.getByRole('textbox', { name: 'User name' }).inputValue(),
  };
}

describe('devices and app passwords', () => {
  it('creates an app password that rclone uploads with, and revoking it in Settings shuts rclone out at once', async () => {
    const account = await createUser(session.server);
    const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: session.server.url });
    await page.goto('/settings');
    const section = devicesSection(page);
    await section.getByText('No app passwords yet.').waitFor();

    const created = await createInSettings(page, 'rclone on my laptop');
    expect(created.password).toMatch(/^([a-z2-9]{6}-){4}[a-z2-9]{6}$/);
    expect(created.serverUrl).toBe(`${session.server.url}/dav/`);
    expect(created.userName).toBe(account.email);
    await created.dialog.getByRole('button', { name: 'Copy App password' }).click();
    await page.getByText('App password copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(created.password);
    await created.dialog.getByRole('button', { name: 'Done' }).click();
    await created.dialog.waitFor({ state: 'detached' });
    // Focus is back on the button that opened the dialog.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Create app password');

    const row = section.getByRole('listitem').filter({ hasText: 'rclone on my laptop' });
    await row.getByText('Last used: Never').waitFor();

    // rclone signs in with the e-mail and the app password, uploads, and the file is in My Files.
    const local = path.join(session.workDir, 'from-rclone.txt');
    await writeFile(local, 'uploaded over WebDAV');
    const credentials = { user: created.userName, password: created.password };
    const upload = await rclone(['copyto', local, ':webdav:from-rclone.txt'], credentials);
    expect(upload.output).toBe('');
    expect(upload.ok).toBe(true);
    expect((await rclone(['lsf', ':webdav:'], credentials)).output).toContain('from-rclone.txt');
    await page.goto('/dashboard');
    await tile(page, 'from-rclone.txt').waitFor();

    await page.goto('/settings');
    await row.getByText(/^Created .* · Last used (?!: Never)/).waitFor();

    // Revoke, confirmed in a dialog; the next rclone call is refused.
    await row.getByRole('button', { name: 'Revoke rclone on my laptop' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke rclone on my laptop?' });
    await confirm.getByRole('button', { name: 'Revoke', exact: true }).click();
    await confirm.waitFor({ state: 'detached' });
    await section.getByText('No app passwords yet.').waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('app-password-name');

    const refused = await rclone(['lsf', ':webdav:'], credentials);
    expect(refused.ok).toBe(false);
    expect(refused.output).toMatch(/401|Unauthorized/i);
    await context.close();
  });

  it('fits a phone and is used with the keyboard alone', async () => {
    const account = await createUser(session.server);
    const { page, context } = await openPage(session.browser, session.server.url, {
      token: account.token,
      viewport: { width: 390, height: 844 },
      mobile: true,
    });
    await page.goto('/settings');
    const section = devicesSection(page);
    await section.getByText('No app passwords yet.').waitFor();
    await section.scrollIntoViewIfNeeded();

    // A blank name is explained, not sent.
    await section.getByLabel('Device name').focus();
    await page.keyboard.press('Enter');
    await section.getByRole('alert').filter({ hasText: 'Enter a name for the app password' }).waitFor();

    await page.keyboard.type('Phone');
    await page.keyboard.press('Enter');
    // The account password is asked for first; focus starts in its field.
    const confirmIt = page.getByRole('dialog', { name: 'Create an app password for Phone' });
    await confirmIt.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('password');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.keyboard.type(DEFAULT_PASSWORD);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'App password for Phone' });
    await dialog.waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const secret = dialog.getByRole('textbox', { name: 'App password' });
    const box = await secret.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    // The whole secret shows, none of it scrolled out of its field.
    expect(await secret.evaluate((field) => field.scrollWidth <= field.clientWidth)).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    const row = section.getByRole('listitem').filter({ hasText: 'Phone' });
    await row.getByText('Last used: Never').waitFor();
    await row.getByRole('button', { name: 'Revoke Phone' }).focus();
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: 'Revoke Phone?' });
    await confirm.waitFor();
    // Cancel keeps it, and focus returns to its Revoke button.
    await confirm.getByRole('button', { name: 'Cancel' }).focus();
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Revoke Phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await context.close();
  });
});
