import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createAppPassword, createUser } from '@cloudvault/test-support/accounts';
import { createFile } from '@cloudvault/test-support/drive';
import { totpCode } from '../apps/server/src/lib/totp.ts';
import { openPage } from './helpers/browser.ts';
import { useE2eSession } from './helpers/session.ts';
import { downloadedBytes, readZip } from './helpers/drive.ts';

const session = useE2eSession('account');

const path = (url: string) => new URL(url).pathname;
const isDark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains('dark'));

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.waitForURL((url) => path(url.toString()) === '/');
}

describe('profile', () => {
  it('edits the names, Cancel keeps the saved ones, and the header follows', async () => {
    const account = await createUser(session.server, { firstName: 'Ada', lastName: 'Lovelace' });
    const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });
    await page.goto('/profile');
    const header = page.getByRole('banner');
    await header.getByText('Ada Lovelace').waitFor();

    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByLabel('First name').fill('Someone');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    expect(await page.getByLabel('First name').inputValue()).toBe('Ada');
    expect(await page.getByLabel('E-mail').isDisabled()).toBe(true);

    await page.getByLabel('First name').fill('  ');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByRole('alert').filter({ hasText: 'First name and last name are required' }).waitFor();

    await page.getByLabel('First name').fill('Grace');
    await page.getByLabel('Last name').fill('Hopper');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Profile updated successfully!').waitFor();
    await header.getByText('Grace Hopper').waitFor();
    await page.getByRole('button', { name: 'Edit Profile' }).waitFor();

    // The saved names are the server's: they survive a reload.
    await page.reload();
    await header.getByText('Grace Hopper').waitFor();
    await context.close();
  });

  it('shows the real account figures and recent activity', async () => {
    const account = await createUser(session.server);
    await fetch(`${session.server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: account.email, password: account.password }),
    });
    await createFile(session.server, account.token, 'hello', { name: 'notes.txt' });
    const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });
    await page.goto('/profile');
    await page.getByRole('tab', { name: 'Activity' }).click();
    await page.getByText('Uploaded notes.txt (5 Bytes)').waitFor();
    await page
      .getByText(/^Signed in from /)
      .first()
      .waitFor();
    await page.getByRole('tab', { name: 'Preferences' }).click();
    await page.getByText('Account created').waitFor();
    await context.close();
  });

  it('changes the password and signs in with the new one', async () => {
    const account = await createUser(session.server);
    // App passwords outlive the change: the page says how many still sign in.
    await createAppPassword(session.server, account, { name: 'Laptop' });
    await createAppPassword(session.server, account, { name: 'Phone' });
    const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });
    await page.goto('/profile');
    await page.getByRole('tab', { name: 'Security' }).click();
    const submit = page.getByRole('button', { name: 'Change Password' });
    expect(await submit.isDisabled()).toBe(true);

    await page.getByLabel('Current password').fill(account.password);
    await page.getByLabel('New password', { exact: true }).fill('brand new secret');
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel('Confirm new password').fill('brand new secreT');
    await submit.click();
    await page.getByRole('alert').filter({ hasText: 'New passwords do not match' }).waitFor();

    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('Confirm new password').fill('brand new secret');
    await submit.click();
    await page.getByRole('alert').filter({ hasText: 'Current password is incorrect' }).waitFor();

    await page.getByLabel('Current password').fill(account.password);
    await submit.click();
    await page.getByText('Password changed successfully!').waitFor();
    await page.getByRole('status').filter({ hasText: 'Your 2 app passwords still work: devices that use them stay signed in.' }).waitFor();
    await page.getByRole('link', { name: 'Review app passwords' }).click();
    await page.waitForURL('**/settings#devices');
    await page.getByRole('region', { name: 'Devices and app passwords' }).getByRole('listitem').filter({ hasText: 'Phone' }).waitFor();

    await signOut(page);
    await signIn(page, account.email, account.password);
    await page.getByText('Invalid email or password').first().waitFor();
    await signIn(page, account.email, 'brand new secret');
    await page.waitForURL('**/dashboard');
    await context.close();
  });
});

describe('settings', () => {
  it('switches to dark, keeps it after a reload with no flash, and follows the system live', async () => {
    const account = await createUser(session.server);
    const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/settings');
    expect(await isDark(page)).toBe(false);

    await page.getByRole('radio', { name: 'Dark' }).click();
    await page.getByText('Settings updated successfully').first().waitFor();
    expect(await isDark(page)).toBe(true);

    // Before any module runs (theme.js in <head>), the page is already dark.
    await page.goto('/dashboard', { waitUntil: 'commit' });
    await page.waitForSelector('body', { state: 'attached' });
    expect(await isDark(page)).toBe(true);
    await page.reload({ waitUntil: 'domcontentloaded' });
    expect(await isDark(page)).toBe(true);

    // System: the operating system decides, also while the page is open.
    await page.goto('/settings');
    await page.getByRole('radio', { name: 'System' }).click();
    await page.getByText('Settings updated successfully').first().waitFor();
    await page.waitForFunction(() => !document.documentElement.classList.contains('dark'));
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForFunction(() => !document.documentElement.classList.contains('dark'));

    const saved = await fetch(`${session.server.url}/api/user/settings`, { headers: { authorization: `Bearer ${account.token}` } });
    expect(((await saved.json()) as { settings: { appearance: { theme: string } } }).settings.appearance.theme).toBe('system');
    await context.close();
  });

  it('applies a stored dark theme from the inline script alone, which the CSP lets run', async () => {
    const { page, context } = await openPage(session.browser, session.server.url);
    await page.emulateMedia({ colorScheme: 'light' });
    await context.addInitScript(() => window.localStorage.setItem('theme', 'dark'));
    // No module of the app loads: only index.html's own script can set the class.
    await page.route('**/assets/*.js', (route) => route.abort());
    const refused: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) refused.push(message.text());
    });
    await page.goto('/', { waitUntil: 'domcontentloaded' });
    expect(await isDark(page)).toBe(true);
    expect(refused).toEqual([]);
    await context.close();
  });

  it('switches the interface to German, the dashboard included', async () => {
    const de = JSON.parse(await readFile(new URL('../apps/web/src/locales/de.json', import.meta.url), 'utf8'));
    const account = await createUser(session.server, { firstName: 'Ada' });
    const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });
    await page.goto('/settings');
    await page.getByLabel('Language').selectOption('de');
    await page.getByRole('heading', { level: 1, name: de.settings.title }).waitFor();

    await page.goto('/dashboard');
    const greetings = Object.values(de.dashboard.greeting as Record<string, string>).map((text) => text.replace('{{firstName}}', 'Ada'));
    await page.getByRole('heading', { level: 1, name: new RegExp(`^(${greetings.join('|')})$`) }).waitFor();
    await page.getByRole('button', { name: de.layout.accountMenu.label }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    await context.close();
  });

  it('turns on two-factor sign-in with the QR secret and signs in with a code', async () => {
    const account = await createUser(session.server);
    const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });
    await page.goto('/settings');
    const twoFactor = page.getByRole('switch', { name: 'Two-factor authentication' });
    expect(await twoFactor.getAttribute('aria-checked')).toBe('false');
    await twoFactor.click();

    const dialog = page.getByRole('dialog', { name: 'Configure two-factor authentication' });
    await dialog.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    const secret = (await dialog.locator('code').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await dialog.getByLabel('Authentication code').fill('000000');
    await dialog.getByRole('button', { name: 'Turn On' }).click();
    await dialog.getByText('That code is not right').waitFor();
    await dialog.getByLabel('Authentication code').fill(totpCode(secret, new Date()));
    await dialog.getByRole('button', { name: 'Turn On' }).click();

    const codes = page.getByRole('dialog', { name: 'Save your recovery codes' });
    await codes.getByRole('list', { name: 'Recovery codes' }).waitFor();
    expect(await codes.getByRole('listitem').count()).toBe(10);
    const recovery = (await codes.getByRole('listitem').first().textContent())?.trim() ?? '';
    await codes.getByRole('button', { name: "I've saved them" }).click();
    await page.waitForFunction(() => document.querySelector('[role="switch"][aria-checked="true"]') !== null);
    await page.getByRole('button', { name: 'Configure' }).waitFor();

    await signOut(page);
    await signIn(page, account.email, account.password);
    const code = page.getByLabel('Authentication code');
    await code.waitFor();
    expect(path(page.url())).toBe('/login');
    await code.fill('123456');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('That code is not right').first().waitFor();
    // A code is accepted once: the one that turned it on is used, so the app's next one
    // (accepted as a clock a step ahead) signs in.
    await code.fill(totpCode(secret, new Date(Date.now() + 30_000)));
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL('**/dashboard');
    await page.getByText('Welcome back!').waitFor();

    // Turning it off takes the password as well as a code; a wrong one is said in the dialog.
    // Through the menu: a fresh page load would put back the token signed out above.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await page.getByRole('switch', { name: 'Two-factor authentication' }).click();
    const off = page.getByRole('dialog', { name: 'Turn off two-factor authentication' });
    await off.getByRole('button', { name: 'Turn Off' }).click();
    await off.getByText('Enter your password', { exact: true }).waitFor();
    await off.getByText('Enter the code', { exact: true }).waitFor();
    await off.getByLabel('Your password', { exact: true }).fill('not my password');
    await off.getByLabel('Authentication code').fill(recovery);
    await off.getByRole('button', { name: 'Turn Off' }).click();
    await off.getByRole('alert').filter({ hasText: 'That password is not right.' }).waitFor();
    await off.getByLabel('Your password', { exact: true }).fill(account.password);
    await off.getByRole('button', { name: 'Turn Off' }).click();
    await page.getByText('Two-factor authentication is off').waitFor();
    await off.waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.querySelector('[role="switch"][aria-checked="false"]') !== null);
    await context.close();
  });

  it('exports the account as a zip the browser saves', async () => {
    const account = await createUser(session.server);
    await createFile(session.server, account.token, 'quarterly numbers', { name: 'report.txt' });
    const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });
    await page.goto('/settings');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export Data' }).click();
    const saved = await download;
    await page.getByText('Data export started').waitFor();
    expect(saved.suggestedFilename()).toMatch(/^CloudVault-data-\d{4}-\d{2}-\d{2}\.zip$/);
    const entries = await readZip(await downloadedBytes(saved));
    expect(entries.get('files/report.txt')?.toString()).toBe('quarterly numbers');
    expect(JSON.parse((entries.get('account.json') as Buffer).toString()).user.email).toBe(account.email);
    await context.close();
  });

  it('deletes the account only after DELETE is typed and the password given, signs out, and the account is gone', async () => {
    const account = await createUser(session.server);
    const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });
    await page.goto('/settings');
    await page.getByRole('button', { name: 'Delete Account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.getByText('Your shared links and collaborations').waitFor();
    const confirm = dialog.getByRole('button', { name: 'Delete Account' });
    expect(await confirm.isDisabled()).toBe(true);

    const field = dialog.getByLabel('Type DELETE to confirm');
    await field.fill('delete');
    expect(await confirm.isDisabled()).toBe(true);
    await field.press('Enter');
    await dialog.getByText('Please type DELETE to confirm').waitFor();

    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Delete Account' }).click();
    expect(await field.inputValue()).toBe('');

    await field.fill('DELETE');
    expect(await confirm.isDisabled()).toBe(true);
    await field.press('Enter');
    await dialog.getByRole('alert').filter({ hasText: 'Enter your password' }).waitFor();
    const password = dialog.getByLabel('Your password', { exact: true });
    await password.fill('not my password');
    expect(await confirm.isDisabled()).toBe(false);
    await confirm.click();
    await dialog.getByRole('alert').filter({ hasText: 'That password is not right.' }).waitFor();
    expect(path(page.url())).toBe('/settings');

    await password.fill(account.password);
    await confirm.click();
    await page.getByText('Account deleted successfully').waitFor();
    await page.waitForURL((url) => path(url.toString()) === '/');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

    await signIn(page, account.email, account.password);
    await page.getByText('Invalid email or password').first().waitFor();
    expect(path(page.url())).toBe('/login');
    await context.close();
  });
});

describe('notification bell', () => {
  it('counts a new-device sign-in, lists it, and marks it read when opened', async () => {
    const account = await createUser(session.server);
    await fetch(`${session.server.url}/api/auth/login`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      },
      body: JSON.stringify({ email: account.email, password: account.password }),
    });
    const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Notifications, 1 unread' }).click();
    await page.getByRole('region', { name: 'Notifications' }).getByText('New sign-in from Chrome on Windows').waitFor();
    await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();
    const unread = await fetch(`${session.server.url}/api/notifications`, { headers: { authorization: `Bearer ${account.token}` } });
    expect(((await unread.json()) as { unread: number }).unread).toBe(0);
    await context.close();
  });
});
