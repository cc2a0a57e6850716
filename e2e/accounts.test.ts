import { describe, expect, it } from 'vitest';
import { createUser, uniqueEmail } from '@cloudvault/test-support/accounts';
import { openPage } from './helpers/browser.ts';
import { useE2eSession } from './helpers/session.ts';

const session = useE2eSession('accounts');

const path = (url: string) => new URL(url).pathname;

describe('accounts in the browser', () => {
  it('registers, lands on the dashboard with the welcome toast and the header names the user', async () => {
    const { page, context } = await openPage(session.browser, session.server.url);
    await page.goto('/');
    await page.getByRole('link', { name: 'Get Started' }).first().click();
    await page.waitForURL('**/register');

    await page.getByLabel('First name').fill('Grace');
    await page.getByLabel('Last name').fill('Hopper');
    await page.getByLabel('E-mail').fill(uniqueEmail());
    await page.getByLabel('Password', { exact: true }).fill('cobol-1959');
    await page.getByLabel('Confirm password').fill('cobol-1959');
    await page.getByRole('button', { name: 'Create Account' }).click();

    await page.waitForURL('**/dashboard');
    await page.getByText('Account created successfully! Welcome to CloudVault').waitFor();
    await page.getByRole('heading', { level: 1, name: /Good (morning|afternoon|evening), Grace/ }).waitFor();
    await page.getByText('Grace Hopper').first().waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toMatch(/^ey/);
    await context.close();
  });

  it('signs out to the landing page and signs back in with "Welcome back!"', async () => {
    const account = await createUser(session.server, { firstName: 'Alan', lastName: 'Turing' });
    const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL((url) => path(url.toString()) === '/');
    await page.getByRole('heading', { name: 'Your Files, Everywhere' }).waitFor();

    // The old token was revoked on the server, not only forgotten by the browser.
    const profile = await fetch(`${session.server.url}/api/auth/profile`, { headers: { authorization: `Bearer ${account.token}` } });
    expect(profile.status).toBe(401);

    await page.getByRole('link', { name: 'Sign In' }).first().click();
    await page.waitForURL('**/login');
    await page.getByLabel('E-mail').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL('**/dashboard');
    await page.getByText('Welcome back!').waitFor();
    await context.close();
  });

  it("shows the server's message for a wrong password and stays on the sign-in page", async () => {
    const account = await createUser(session.server);
    const { page, context } = await openPage(session.browser, session.server.url);
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('Invalid email or password').first().waitFor();
    expect(path(page.url())).toBe('/login');
    await context.close();
  });

  it('shows the registration validation messages without calling the server', async () => {
    const { page, context } = await openPage(session.browser, session.server.url);
    let registerCalls = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/auth/register')) registerCalls += 1;
    });
    await page.goto('/register');
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('E-mail').fill(uniqueEmail());

    await page.getByLabel('Password', { exact: true }).fill('secret1');
    await page.getByLabel('Confirm password').fill('secret2');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByRole('alert').filter({ hasText: 'Passwords do not match' }).first().waitFor();

    await page.getByLabel('Password', { exact: true }).fill('12345');
    await page.getByLabel('Confirm password').fill('12345');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByRole('alert').filter({ hasText: 'Password must be at least 6 characters long' }).first().waitFor();

    expect(registerCalls).toBe(0);
    expect(path(page.url())).toBe('/register');
    await context.close();
  });

  it("shows the server's message when the e-mail is already registered", async () => {
    const account = await createUser(session.server);
    const { page, context } = await openPage(session.browser, session.server.url);
    await page.goto('/register');
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Again');
    await page.getByLabel('E-mail').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill('secret12');
    await page.getByLabel('Confirm password').fill('secret12');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('An account with this e-mail already exists').first().waitFor();
    expect(path(page.url())).toBe('/register');
    await context.close();
  });
});

describe('route guards', () => {
  it('sends a signed-out visitor from /dashboard to /login', async () => {
    const { page, context } = await openPage(session.browser, session.server.url);
    await page.goto('/dashboard');
    await page.waitForURL('**/login');
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await context.close();
  });

  it('sends a signed-in user from /login and / to /dashboard', async () => {
    const account = await createUser(session.server);
    const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });
    await page.goto('/login');
    await page.waitForURL('**/dashboard');
    await page.goto('/');
    await page.waitForURL('**/dashboard');
    await context.close();
  });

  it('sends an unknown path to /', async () => {
    const { page, context } = await openPage(session.browser, session.server.url);
    await page.goto('/no/such/page');
    await page.waitForURL((url) => path(url.toString()) === '/');
    await page.getByRole('heading', { name: 'Your Files, Everywhere' }).waitFor();
    await context.close();
  });

  it('drops a revoked token and goes to /login', async () => {
    const account = await createUser(session.server);
    await fetch(`${session.server.url}/api/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${account.token}` } });
    const { page, context } = await openPage(session.browser, session.server.url);
    await page.goto('/');
    await page.evaluate((token) => localStorage.setItem('token', token), account.token);
    await page.goto('/dashboard');
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await context.close();
  });

  it('shows each signed-in page under its heading', async () => {
    const account = await createUser(session.server);
    const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });
    const pages: Array<[string, string]> = [
      ['/profile', 'Profile'],
      ['/subscription', 'Subscription & Billing'],
      ['/settings', 'Settings'],
      ['/pricing', 'Choose Your Perfect Plan'],
    ];
    for (const [route, heading] of pages) {
      await page.goto(route);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    }
    await page.goto('/success');
    await page.getByText('Redirecting to dashboard...').waitFor();
    await page.waitForURL('**/dashboard');
    await context.close();
  });
});
