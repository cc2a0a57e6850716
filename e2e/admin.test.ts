import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createUser, uniqueEmail } from '@cloudvault/test-support/accounts';
import { request } from '@cloudvault/test-support/running-server';
import { openPage } from './helpers/browser.ts';
import { sessionOperator } from './helpers/operator.ts';
import { useE2eSession } from './helpers/session.ts';

// An operator is an account whose verified address is listed in ADMIN_EMAILS.
const operatorEmail = uniqueEmail();
const session = useE2eSession('admin', { ADMIN_EMAILS: operatorEmail });

const SUSPENDED_MESSAGE = 'This account is suspended. Contact support to restore it.';
const toast = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text }).first();
const path = (page: Page) => new URL(page.url()).pathname;

/** The operator, registered and verified once for the file. */
const signedInOperator = sessionOperator(session, operatorEmail);

/** The figure a stat card of the overview shows under `label`. */
async function statValue(page: Page, label: string): Promise<string> {
  const card = page.locator('dl > div').filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) });
  return (await card.locator('dd > span').first().textContent()) ?? '';
}

async function signInThroughForm(browser: Browser, email: string, password: string) {
  const opened = await openPage(browser, session.server.url);
  await opened.page.goto('/login');
  await opened.page.getByLabel('E-mail').fill(email);
  await opened.page.getByLabel('Password', { exact: true }).fill(password);
  await opened.page.getByRole('button', { name: 'Sign in', exact: true }).click();
  return opened;
}

async function confirmAction(page: Page, button: string, confirm: string, reason: string) {
  await page.getByRole('button', { name: button, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Reason').fill(reason);
  await dialog.getByRole('button', { name: confirm }).click();
  await dialog.waitFor({ state: 'detached' });
}

describe('the operator console', () => {
  it('suspends an account found by search, refuses its sign-in with the reason, restores it and logs both', async () => {
    const admin = await signedInOperator();
    const target = await createUser(session.server, { firstName: 'Grace', lastName: 'Hopper' });
    const { page, context } = await openPage(session.browser, session.server.url, { token: admin.token });

    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Admin' }).click();
    await page.waitForURL('**/admin');
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    // The figures count what this file created: the operator and Grace (and nobody else).
    await expect.poll(() => statValue(page, 'Users')).toBe('2');
    expect(await statValue(page, 'Suspended accounts')).toBe('0');
    await page.getByRole('region', { name: 'Health' }).getByText('Database').waitFor();

    await page.getByRole('navigation', { name: 'Operator console' }).getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await page.getByRole('searchbox', { name: 'Search' }).fill('hopp');
    // The search is debounced and answered by the server: only Grace is left.
    await page.waitForURL((url) => url.searchParams.get('q') === 'hopp');
    const table = page.getByRole('table', { name: 'Accounts found' });
    await table.getByRole('link', { name: /Grace Hopper/ }).waitFor();
    await expect.poll(() => table.getByRole('row').count()).toBe(2); // the header and Grace
    await table.getByRole('link', { name: /Grace Hopper/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Grace Hopper' }).waitFor();

    await confirmAction(page, 'Suspend', 'Suspend account', 'Chargeback investigation #42');
    await toast(page, 'Grace Hopper is suspended.').waitFor();
    await page.getByText('Suspended since').waitFor();
    // Focus went back to the actions, not to the top of the page.
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('BUTTON');

    const refused = await signInThroughForm(session.browser, target.email, target.password);
    await refused.page.getByRole('alert').filter({ hasText: SUSPENDED_MESSAGE }).waitFor();
    expect(path(refused.page)).toBe('/login');

    // The overview counts the suspension.
    await page.getByRole('navigation', { name: 'Operator console' }).getByRole('link', { name: 'Overview' }).click();
    await expect.poll(() => statValue(page, 'Suspended accounts')).toBe('1');
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Grace Hopper' }).waitFor();

    await confirmAction(page, 'Unsuspend', 'Unsuspend account', 'Investigation closed');
    await toast(page, 'Grace Hopper can sign in again.').waitFor();

    await refused.page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await refused.page.waitForURL('**/dashboard');
    await refused.context.close();

    // The account's own log on its page, and the whole log under Audit, newest first.
    const ownLog = page.getByRole('region', { name: 'Audit log for this account' }).getByRole('table');
    await ownLog.getByRole('row').filter({ hasText: 'Chargeback investigation #42' }).waitFor();
    await page.getByRole('navigation', { name: 'Operator console' }).getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    const log = page.getByRole('table', { name: 'Operator actions, newest first' });
    const rows = log.getByRole('row');
    await rows.nth(2).waitFor();
    const suspension = rows.filter({ hasText: 'Chargeback investigation #42' });
    expect(await suspension.textContent()).toContain('Suspended');
    expect(await suspension.textContent()).toContain(operatorEmail);
    expect(await suspension.textContent()).toContain(target.email);
    expect(await rows.nth(1).textContent()).toContain('Investigation closed');

    await page.getByRole('navigation', { name: 'Operator console' }).getByRole('link', { name: 'Overview' }).click();
    await expect.poll(() => statValue(page, 'Suspended accounts')).toBe('0');
    await context.close();
  });

  it('grants a plan by hand, which the user sees on their Subscription page as complimentary with its end', async () => {
    const admin = await signedInOperator();
    const target = await createUser(session.server, { firstName: 'Katherine', lastName: 'Johnson' });
    const { page, context } = await openPage(session.browser, session.server.url, { token: admin.token });
    await page.goto(`/admin/users/${target.user.id}`);
    await page.getByRole('button', { name: 'Grant a plan', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Grant a plan free of charge' });
    await dialog.getByLabel('Plan').selectOption('PREMIUM');
    await dialog.getByLabel('Ends on').fill('2099-12-31');
    // The reason is required: the dialog says so instead of sending.
    await dialog.getByRole('button', { name: 'Grant plan' }).click();
    await dialog.getByText('Say why: the audit log keeps the reason.').waitFor();
    await dialog.getByLabel('Reason').fill('Conference speaker');
    await dialog.getByRole('button', { name: 'Grant plan' }).click();
    await toast(page, 'Business granted until Dec 31, 2099.').waitFor();
    await page.getByText('Complimentary Business until Dec 31, 2099').waitFor();
    await context.close();

    const own = await openPage(session.browser, session.server.url, { token: target.token });
    await own.page.goto('/subscription');
    await own.page.getByText('Your Business plan is complimentary', { exact: false }).waitFor();
    expect(await own.page.getByRole('region', { name: 'Business' }).textContent()).toContain('Dec 31, 2099');
    await own.context.close();
  });

  it('shows a non-operator the not-found page at /admin and no Admin in the menu', async () => {
    const user = await createUser(session.server);
    const { page, context } = await openPage(session.browser, session.server.url, { token: user.token });
    await page.goto('/admin/users');
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Admin' }).count()).toBe(0);
    await context.close();
  });

  it('lists the users as cards on a phone, searchable, without sideways scrolling', async () => {
    const admin = await signedInOperator();
    await createUser(session.server, { firstName: 'Ada', lastName: 'Byron' });
    const { page, context } = await openPage(session.browser, session.server.url, {
      token: admin.token,
      viewport: { width: 390, height: 844 },
      mobile: true,
    });
    await page.goto('/admin/users');
    const cards = page.getByRole('list', { name: 'Accounts found' });
    await cards.getByRole('link', { name: /Ada Byron/ }).waitFor();
    expect(await page.getByRole('table', { name: 'Accounts found' }).isVisible()).toBe(false);
    await page.getByRole('searchbox', { name: 'Search' }).fill('byron');
    await expect.poll(() => cards.getByRole('listitem').count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await cards.getByRole('link', { name: /Ada Byron/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Ada Byron' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await context.close();
  });

  it("deletes an account only with the operator's own password, and offers nothing on an operator's account", async () => {
    const admin = await signedInOperator();
    const target = await createUser(session.server, { firstName: 'Alan', lastName: 'Turing' });
    const { page, context } = await openPage(session.browser, session.server.url, { token: admin.token });

    await page.goto(`/admin/users/${admin.user.id}`);
    await page.getByRole('heading', { level: 1, name: 'Olga Operator' }).waitFor();
    await page.getByText("Operators act on users only: the console offers no action on an operator's account.").waitFor();
    expect(await page.getByRole('button', { name: 'Delete account' }).count()).toBe(0);

    await page.goto(`/admin/users/${target.user.id}`);
    await page.getByRole('button', { name: 'Delete account', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this account?' });
    await dialog.getByLabel(`Type ${target.email} to confirm`).fill(target.email);
    await dialog.getByLabel('Reason').fill('Asked by e-mail');
    await dialog.getByLabel('Your password').fill('not my password');
    await dialog.getByRole('button', { name: 'Delete account' }).click();
    await dialog.getByText('That password is not right.').waitFor();
    expect((await request(session.server, 'GET', '/api/auth/profile', { token: target.token })).status).toBe(200);

    await dialog.getByLabel('Your password').fill(admin.password);
    await dialog.getByRole('button', { name: 'Delete account' }).click();
    await toast(page, `${target.email} was deleted.`).waitFor();
    await page.waitForURL('**/admin/users');
    expect((await request(session.server, 'GET', '/api/auth/profile', { token: target.token })).status).toBe(401);
    await context.close();
  });
});
