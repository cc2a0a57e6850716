import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createAppPassword, createUser, uniqueEmail } from '@cloudvault/test-support/accounts';
import { openPage } from './helpers/browser.ts';
import { mailedLink } from './helpers/outbox.ts';
import { useE2eSession } from './helpers/session.ts';

const session = useE2eSession('account-recovery');

const toast = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text }).first();
const banner = (page: Page) => page.getByRole('complementary').filter({ hasText: 'Verify your e-mail' });
/** A page as wide as its viewport: nothing sticks out sideways on a phone. */
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('e-mail verification in the browser', () => {
  it('registers, shows the banner on signed-in pages, and the mailed link verifies the address and removes it', async () => {
    const email = uniqueEmail();
    const { page, context } = await openPage(session.browser, session.server.url, { viewport: { width: 390, height: 844 }, mobile: true });
    await page.goto('/register');
    await page.getByLabel('First name').fill('Grace');
    await page.getByLabel('Last name').fill('Hopper');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('cobol-1959');
    await page.getByLabel('Confirm password').fill('cobol-1959');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL('**/dashboard');

    // Registration stays instant: the dashboard works, with a quiet banner above it.
    await page.getByText('Your cloud is empty').waitFor();
    await banner(page).getByText(`Open the link we sent to ${email} to see folders shared with you.`).waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await page.goto('/settings');
    await banner(page).waitFor();
    await banner(page).getByRole('button', { name: 'Resend' }).click();
    await toast(page, `We sent a new link to ${email}.`).waitFor();
    // Five an hour: after four more, the sixth is refused with how long to wait.
    const token = await page.evaluate(() => localStorage.getItem('token'));
    for (let sent = 1; sent < 5; sent += 1) {
      const response = await fetch(`${session.server.url}/api/auth/resend-verification`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(202);
    }
    // The toasts sit at the bottom, away from the banner (toast-stack.tsx): Resend is pressed again at once.
    await banner(page).getByRole('button', { name: 'Resend' }).click();
    await toast(page, /^Too many attempts\. Please try again in \d+ minutes\.$/).waitFor();

    await page.goto(await mailedLink(session.server, email, '/verify-email'));
    await page.getByRole('heading', { level: 1, name: 'Your e-mail is verified' }).waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await page.getByRole('link', { name: 'Go to your files' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByText('Your cloud is empty').waitFor();
    expect(await banner(page).count()).toBe(0);

    // The link worked once.
    await page.goto(await mailedLink(session.server, email, '/verify-email'));
    await page.getByRole('heading', { level: 1, name: 'This link does not work' }).waitFor();
    await page.getByText('This verification link is invalid, used or expired. Ask for a new one.').waitFor();
    await context.close();
  });

  it('explains a broken link and offers a new one when signed in; says it is verified when signed out', async () => {
    const account = await createUser(session.server);
    const signedIn = await openPage(session.browser, session.server.url, { token: account.token });
    await signedIn.page.goto('/verify-email?token=not-a-real-token');
    await signedIn.page.getByRole('heading', { level: 1, name: 'This link does not work' }).waitFor();
    await signedIn.page.getByRole('button', { name: 'Send a new link' }).click();
    await toast(signedIn.page, 'We sent you a new verification link. Check your inbox.').waitFor();
    await signedIn.context.close();

    // The link opens in another browser, with nobody signed in: it still verifies.
    const visitor = await openPage(session.browser, session.server.url);
    await visitor.page.goto(await mailedLink(session.server, account.email, '/verify-email'));
    await visitor.page.getByRole('heading', { level: 1, name: 'Your e-mail is verified' }).waitFor();
    await visitor.page.getByRole('link', { name: 'Sign in' }).click();
    await visitor.page.waitForURL('**/login');
    await visitor.context.close();
    const profile = await fetch(`${session.server.url}/api/auth/profile`, { headers: { authorization: `Bearer ${account.token}` } });
    expect(((await profile.json()) as { user: { emailVerified: boolean } }).user.emailVerified).toBe(true);
  });
});

describe('password recovery in the browser', () => {
  it('asks for a link from the sign-in page, sets a new password from the mailed link, and signs in with it', async () => {
    const account = await createUser(session.server, { firstName: 'Alan' });
    const appPassword = await createAppPassword(session.server, account, { name: 'Laptop' });
    const { page, context } = await openPage(session.browser, session.server.url);
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/forgot-password');
    await page.getByRole('heading', { level: 1, name: 'Forgot your password?' }).waitFor();
    await page.getByLabel('E-mail').fill(`  ${account.email} `);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('If an account exists for this e-mail, we sent it a link to reset the password. Check your inbox.').waitFor();

    await page.goto(await mailedLink(session.server, account.email, '/reset-password'));
    await page.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor();
    // Checked unless the user unticks it: the app passwords end with the old password.
    expect(await page.getByRole('checkbox', { name: 'Also sign out every app password' }).isChecked()).toBe(true);
    await page.getByLabel('New password', { exact: true }).fill('enigma');
    await page.getByLabel('Confirm password').fill('enigma-1');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('alert').filter({ hasText: 'Passwords do not match' }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill('abc');
    await page.getByLabel('Confirm password').fill('abc');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('alert').filter({ hasText: 'Password must be at least 6 characters long' }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill('enigma-1940');
    await page.getByLabel('Confirm password').fill('enigma-1940');
    await page.getByRole('button', { name: 'Set new password' }).click();

    await page.waitForURL('**/login');
    await toast(page, 'Your password was changed. Sign in with your new password.').waitFor();
    // Every session ended, the one from registration too, and the app password with them.
    expect((await fetch(`${session.server.url}/api/auth/profile`, { headers: { authorization: `Bearer ${account.token}` } })).status).toBe(
      401,
    );
    const davAuthorization = `Basic ${Buffer.from(`${account.email}:${appPassword}`).toString('base64')}`;
    expect(
      (await fetch(`${session.server.url}/dav/`, { method: 'PROPFIND', headers: { depth: '0', authorization: davAuthorization } })).status,
    ).toBe(401);
    await page.getByLabel('E-mail').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('Invalid email or password').first().waitFor();
    await page.getByLabel('Password', { exact: true }).fill('enigma-1940');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL('**/dashboard');
    await page.getByText('Welcome back!').waitFor();
    // The reset link reached the address, so it counts as verified.
    expect(await banner(page).count()).toBe(0);

    // The link worked once.
    await page.goto(await mailedLink(session.server, account.email, '/reset-password'));
    await page.getByLabel('New password', { exact: true }).fill('another-one');
    await page.getByLabel('Confirm password').fill('another-one');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('alert').filter({ hasText: 'This reset link is invalid, used or expired. Ask for a new one.' }).waitFor();
    await page.getByRole('link', { name: 'Ask for a new link' }).waitFor();
    await context.close();
  });
});
