import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { totpCode } from '../apps/server/src/lib/totp.ts';
import { openPage } from './helpers/browser.ts';
import { useE2eSession } from './helpers/session.ts';

// PUBLIC_URL http://localhost:<port>: a passkey is bound to a domain, and localhost is a secure context.
const session = useE2eSession('passkeys', {}, { host: 'localhost' });

const toast = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text }).first();
const path = (url: string) => new URL(url).pathname;

/**
 * Chromium's virtual authenticator (DevTools protocol): a platform authenticator that keeps
 * discoverable credentials and verifies its user at once, as a fingerprint reader would.
 */
async function addVirtualAuthenticator(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
    /** Whether the user proves who they are (a finger the reader knows), or only that someone is there. */
    verifiesUser: (verified: boolean) => cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: verified }),
  };
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.waitForURL((url) => path(url.toString()) === '/');
}

async function openSettings(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Settings' }).click();
  return page.getByRole('region', { name: 'Passkeys' });
}

describe('passkeys in the browser', () => {
  it('are added in Settings, sign in with no e-mail typed, stand in for the code, and are removed', async () => {
    const account = await createUser(session.server);
    const { page, context } = await openPage(session.browser, session.server.url);
    const authenticator = await addVirtualAuthenticator(context, page);
    // Signed in once, without the init script that would sign in again after signing out.
    await page.goto('/login');
    await page.evaluate((token) => localStorage.setItem('token', token), account.token);
    await page.goto('/dashboard');

    let section = await openSettings(page);
    await section.getByText('No passkeys yet.').waitFor();
    await section.getByRole('button', { name: 'Add a passkey' }).click();
    await section.getByText('Enter a name for the passkey').waitFor();
    await section.getByLabel('Passkey name').fill('Chromium');
    await section.getByRole('button', { name: 'Add a passkey' }).click();
    await toast(page, 'Passkey “Chromium” added').waitFor();
    const list = section.getByRole('list', { name: 'Your passkeys' });
    await list.getByText('Chromium').waitFor();
    await list.getByText('Not used yet').waitFor();
    const [credential] = await authenticator.credentials();
    expect(credential).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });

    // The same authenticator is not offered a second passkey for the account.
    await section.getByLabel('Passkey name').fill('Again');
    await section.getByRole('button', { name: 'Add a passkey' }).click();
    await section.getByText('This device already holds one of your passkeys.').waitFor();

    await section.getByRole('button', { name: 'Rename Chromium' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename passkey' });
    await rename.getByLabel('Passkey name').fill('Work laptop');
    await rename.getByRole('button', { name: 'Save' }).click();
    await list.getByText('Work laptop').waitFor();

    // Conditional UI: the sign-in page asks for a passkey through the e-mail field's
    // suggestions as it opens; Chromium's virtual authenticator picks the one it holds.
    await signOut(page);
    await page.goto('/login');
    await page.waitForURL('**/dashboard');
    await page.getByText('Welcome back!').waitFor();

    // The button: a prompt the user turns down is said as such; the next one signs in. Each
    // prompt replaces the page's pending autofill request.
    await authenticator.verifiesUser(false);
    await signOut(page);
    await page.goto('/login');
    expect(await page.getByLabel('E-mail').getAttribute('autocomplete')).toBe('username webauthn');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('alert').filter({ hasText: 'passkey prompt was closed' }).waitFor();
    await authenticator.verifiesUser(true);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL('**/dashboard');

    // Two-factor on: after the password, the passkey instead of the code.
    // (The session the passkey opened: the account's first one ended with the sign-out.)
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const setup = await fetch(`${session.server.url}/api/auth/2fa/setup`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    const { secret } = (await setup.json()) as { secret: string };
    const enabled = await fetch(`${session.server.url}/api/auth/2fa/enable`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ code: totpCode(secret, new Date()) }),
    });
    expect(enabled.status).toBe(200);
    // Turned down in the autofill (silently) and at the first ask, so the password goes first.
    await authenticator.verifiesUser(false);
    await signOut(page);
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByLabel('Authentication code').waitFor();
    expect(path(page.url())).toBe('/login');
    await page.getByRole('button', { name: 'Use a passkey instead' }).click();
    await page.getByRole('alert').filter({ hasText: 'passkey prompt was closed' }).waitFor();
    await authenticator.verifiesUser(true);
    await page.getByRole('button', { name: 'Use a passkey instead' }).click();
    await page.waitForURL('**/dashboard');

    section = await openSettings(page);
    await section.getByText(/ · Last used /).waitFor();
    await section.getByRole('button', { name: 'Remove Work laptop' }).click();
    const remove = page.getByRole('dialog', { name: 'Remove “Work laptop”?' });
    await remove.getByRole('button', { name: 'Remove passkey' }).click();
    await toast(page, 'Passkey “Work laptop” removed').waitFor();
    await section.getByText('No passkeys yet.').waitFor();

    // Removed from the account, the passkey the authenticator still holds signs nobody in.
    await signOut(page);
    await page.goto('/login');
    await toast(page, 'That passkey could not be verified').waitFor();
    expect(path(page.url())).toBe('/login');
    await context.close();
  });
});
