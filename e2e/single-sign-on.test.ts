import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenIdProvider, type TestOpenIdProvider } from '../apps/server/test/helpers/oidc-provider.ts';
import { openPage } from './helpers/browser.ts';
import { useE2eSession } from './helpers/session.ts';

const CLIENT_ID = 'cloudvault-e2e';
const CLIENT_SECRET = 'cloudvault-e2e-secret';
const EMAIL = 'sam.single@example.com';

// The provider's address goes in the server's environment, filled in before the session starts it.
const env: Record<string, string> = {};
let provider: TestOpenIdProvider;
beforeAll(async () => {
  provider = await startOpenIdProvider({
    // Read once the server is up: its address is the redirect URI.
    clients: () => [{ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUri: `${session.server.url}/api/auth/oidc/callback` }],
    accounts: { sam: { email: EMAIL, email_verified: true, given_name: 'Sam', family_name: 'Single' } },
  });
  Object.assign(env, {
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: CLIENT_ID,
    OIDC_CLIENT_SECRET: CLIENT_SECRET,
    OIDC_BUTTON_LABEL: 'Test ID',
  });
});
const session = useE2eSession('single-sign-on', env);
afterAll(() => provider?.close());

const path = (url: string) => new URL(url).pathname;

/** The test provider's sign-in page: pick the account, submit. */
async function signInAtProvider(page: Page) {
  await page.waitForURL((url) => url.toString().startsWith(provider.issuer));
  await page.getByLabel('Account').selectOption('sam');
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('single sign-on in the browser', () => {
  it('signs in with the provider, shows the link in Settings, and confirms deleting the account with the provider', async () => {
    const { page } = await openPage(session.browser, session.server.url);
    await page.goto('/login');
    await page.getByRole('link', { name: 'Sign in with Test ID' }).click();
    await signInAtProvider(page);
    await page.waitForURL((url) => path(url.toString()) === '/dashboard');
    // The one-time code is out of the address once used.
    expect(page.url()).not.toContain('code=');

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    const link = page.getByRole('region', { name: 'Single sign-on' });
    await expect.poll(() => link.textContent()).toContain(EMAIL);
    expect(await link.textContent()).toContain('Test ID');

    // No password to type: the dialog sends the user to the provider, who brings them back here.
    await page.getByRole('button', { name: 'Delete Account' }).click();
    await page.getByRole('button', { name: 'Confirm with Test ID' }).click();
    await signInAtProvider(page);
    await page.waitForURL((url) => path(url.toString()) === '/settings' && url.searchParams.get('sso') === 'reauthenticated');
    await page.getByRole('button', { name: 'Delete Account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await expect.poll(() => dialog.textContent()).toContain('Confirmed with Test ID');
    await dialog.getByLabel('Type DELETE to confirm').fill('DELETE');
    await dialog.getByRole('button', { name: 'Delete Account' }).click();
    await page.waitForURL((url) => path(url.toString()) === '/');
    await page.close();
  });
});
