import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createVerifiedUser } from './helpers/factories.ts';
import { type IdTokenTamper, startOpenIdProvider, type TestOpenIdProvider } from './helpers/oidc-provider.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

/** The address the provider sends browsers back to; the test browser takes it to the server under test. */
const PUBLIC_URL = 'http://cloudvault.test';
const CLIENT = { clientId: 'cloudvault', clientSecret: 'cloudvault-test-secret', redirectUri: `${PUBLIC_URL}/api/auth/oidc/callback` };
const ADMIN_GROUP = 'cloudvault-operators';

let provider: TestOpenIdProvider;
let server: TestServer;
const ssoEnv = () => ({
  PUBLIC_URL,
  OIDC_ISSUER: provider.issuer,
  OIDC_CLIENT_ID: CLIENT.clientId,
  OIDC_CLIENT_SECRET: CLIENT.clientSecret,
  OIDC_BUTTON_LABEL: 'Test ID',
  OIDC_ADMIN_GROUP: ADMIN_GROUP,
});

beforeAll(async () => {
  provider = await startOpenIdProvider({ clients: [CLIENT], accounts: {} });
  // The provider checks tokens against real time: the server's clock follows it (tests move it on).
  server = await startTestServer({ env: ssoEnv(), realTimeClock: true });
});
afterAll(async () => {
  await server?.close();
  await provider?.close();
});

let subjects = 0;
/** An account at the provider with a fresh subject and address. */
function providerAccount(overrides: { email?: string; email_verified?: boolean; groups?: string[] } = {}) {
  const subject = `person-${++subjects}`;
  const email = overrides.email ?? `${subject}@example.com`;
  provider.setAccount(subject, { email, email_verified: true, given_name: 'Ada', family_name: 'Lovelace', ...overrides });
  return { subject, email };
}

/** A browser over plain HTTP: follows nothing by itself, keeps each host's cookies (by name, whatever the port, as browsers do). */
function browser() {
  const jars = new Map<string, Map<string, string>>();
  return async (url: string, init: { method?: string; form?: Record<string, string>; json?: unknown; token?: string } = {}) => {
    const target = new URL(url);
    const jar = jars.get(target.hostname) ?? new Map<string, string>();
    jars.set(target.hostname, jar);
    const headers: Record<string, string> = {};
    if (jar.size > 0) headers.cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    const response = await fetch(target, {
      method: init.method ?? (init.form || init.json !== undefined ? 'POST' : 'GET'),
      headers,
      body: init.form ? new URLSearchParams(init.form).toString() : init.json !== undefined ? JSON.stringify(init.json) : undefined,
      redirect: 'manual',
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, ...value] = (pair ?? '').split('=');
      if (/max-age=0/i.test(cookie)) jar.delete(name!);
      else jar.set(name!, value.join('='));
    }
    const location = response.headers.get('location');
    return { status: response.status, location: location ? new URL(location, target).href : undefined, text: await response.text() };
  };
}
type Browser = ReturnType<typeof browser>;

/** On `node` (the server by default), the server's address for a URL the provider built with PUBLIC_URL. */
const onNode = (url: string, node: TestServer = server) => url.replace(PUBLIC_URL, node.url);

/**
 * From a provider sign-in page to the callback the provider redirects to, signing in as
 * `subject` on its form: the callback's address on the server, not yet visited.
 */
async function signInAtProvider(visit: Browser, authorizeUrl: string, subject: string): Promise<string> {
  let step = await visit(authorizeUrl);
  for (let hops = 0; hops < 10; hops++) {
    const at = step.location ?? '';
    if (at.startsWith(PUBLIC_URL)) return at;
    step = /\/interaction\/[\w-]+$/.test(at) ? await visit(at, { form: { account: subject } }) : await visit(at);
  }
  throw new Error(`the provider never sent the browser back: ${step.status} ${step.text}`);
}

/** Start → provider → the callback address (not yet visited), in a fresh browser unless given. */
async function callbackFor(subject: string, visit = browser(), node: TestServer = server, next = '/files') {
  const start = await visit(`${node.url}/api/auth/oidc/start?next=${encodeURIComponent(next)}`);
  expect(start.status).toBe(302);
  expect(start.location?.startsWith(provider.issuer)).toBe(true);
  return { visit, callback: await signInAtProvider(visit, start.location!, subject) };
}

/** A browser back from the provider: where the callback sent it. */
interface Landed {
  visit: Browser;
  landing: string;
}

/** The whole sign-in: where the callback sent the browser. */
async function signIn(subject: string, node: TestServer = server): Promise<Landed> {
  const { visit, callback } = await callbackFor(subject, browser(), node);
  return { visit, landing: (await visit(onNode(callback, node))).location! };
}

/** The one-time code a successful sign-in's landing page trades for its session (with its cookie, as the page's fetch sends it). */
async function sessionOf({ visit, landing }: Landed, node: TestServer = server) {
  const url = new URL(landing);
  expect(url.pathname).toBe('/login/single-sign-on');
  const code = new URLSearchParams(url.hash.slice(1)).get('code')!;
  const answer = await visit(`${node.url}/api/auth/oidc/session`, { json: { code } });
  expect(answer.status).toBe(200);
  const body = JSON.parse(answer.text);
  return { token: body.token as string, user: body.user, code, next: new URLSearchParams(url.hash.slice(1)).get('next') };
}

/** A signed-in session signs in at the provider again as `as` (Settings' "Confirm with"): where it comes back to. */
async function reauthenticate(token: string, as: string) {
  const visit = browser();
  const started = await server.request('POST', '/api/auth/oidc/reauth', { token, body: { next: '/settings' } });
  expect(started.status).toBe(200);
  expect(new URL(started.body.location).searchParams.get('prompt')).toBe('login');
  const cookie = started.headers
    .getSetCookie()
    .find((line) => line.startsWith('cloudvault_sso='))!
    .split(';')[0]!;
  const callback = await signInAtProvider(visit, started.body.location, as);
  const back = await fetch(onNode(callback), { headers: { cookie }, redirect: 'manual' });
  return new URL(back.headers.get('location')!, server.url);
}

const refusal = (landed: Landed | string) => new URL(typeof landed === 'string' ? landed : landed.landing).searchParams.get('sso');

describe('single sign-on', () => {
  it('tells the sign-in pages what they offer', async () => {
    const methods = await server.request('GET', '/api/auth/methods');
    expect(methods.body).toEqual({ passwordSignIn: 'everyone', singleSignOn: { label: 'Test ID' }, passkeys: true });
  });

  it('makes an account without a password at the first sign-in, finds it at the next, and hands the session over once', async () => {
    const { subject, email } = providerAccount();
    const first = await sessionOf(await signIn(subject));
    expect(first.next).toBe('/files');
    expect(first.user).toMatchObject({
      email,
      firstName: 'Ada',
      lastName: 'Lovelace',
      emailVerified: true,
      hasPassword: false,
      role: 'user',
    });
    const link = await server.request('GET', '/api/auth/oidc/link', { token: first.token });
    expect(link.body.link).toMatchObject({ label: 'Test ID', email });
    // The one-time code works once.
    expect((await server.request('POST', '/api/auth/oidc/session', { body: { code: first.code } })).status).toBe(400);
    // …and only in the browser that signed in: a code sent to someone else signs nobody in.
    const stolen = await signIn(subject);
    const code = new URLSearchParams(new URL(stolen.landing).hash.slice(1)).get('code')!;
    expect((await browser()(`${server.url}/api/auth/oidc/session`, { json: { code } })).status).toBe(400);
    // No password opens it.
    expect((await server.request('POST', '/api/auth/login', { body: { email, password: '' } })).status).toBe(401);
    const second = await sessionOf(await signIn(subject));
    expect(second.user.id).toBe(first.user.id);
  });

  it('links an existing account when the provider verified its address; the account keeps its password', async () => {
    const owner = await createVerifiedUser(server);
    const { subject } = providerAccount({ email: owner.email.toUpperCase() });
    const signedIn = await sessionOf(await signIn(subject));
    expect(signedIn.user).toMatchObject({ id: owner.user.id, hasPassword: true });
    expect((await server.request('POST', '/api/auth/login', { body: { email: owner.email, password: owner.password } })).status).toBe(200);
  });

  it('links an account nobody proved the address of, and ends what its registrant held (password, sessions)', async () => {
    const registrant = await createUser(server);
    const { subject } = providerAccount({ email: registrant.email });
    const signedIn = await sessionOf(await signIn(subject));
    expect(signedIn.user).toMatchObject({ id: registrant.user.id, hasPassword: false, emailVerified: true });
    expect((await server.request('GET', '/api/auth/profile', { token: registrant.token })).status).toBe(401);
    const login = await server.request('POST', '/api/auth/login', { body: { email: registrant.email, password: registrant.password } });
    expect(login.status).toBe(401);
  });

  it('refuses an address the provider has not verified when an account has it, and makes no link', async () => {
    const owner = await createVerifiedUser(server);
    const { subject } = providerAccount({ email: owner.email, email_verified: false });
    expect(refusal(await signIn(subject))).toBe('unverified-email');
    expect(refusal(await signIn(subject))).toBe('unverified-email');
    expect((await server.request('POST', '/api/auth/login', { body: { email: owner.email, password: owner.password } })).status).toBe(200);
  });

  it('makes an account with an unverified address as unverified, and refuses an identity without an address', async () => {
    const { subject, email } = providerAccount({ email_verified: false });
    expect((await sessionOf(await signIn(subject))).user).toMatchObject({ email, emailVerified: false });
    const nameless = providerAccount();
    provider.setAccount(nameless.subject, { email_verified: true });
    expect(refusal(await signIn(nameless.subject))).toBe('no-email');
  });

  it('refuses a tampered state, a replayed callback and a callback in another browser', async () => {
    const { subject } = providerAccount();
    const tampered = await callbackFor(subject);
    const url = new URL(onNode(tampered.callback));
    url.searchParams.set('state', 'forged');
    expect(refusal((await tampered.visit(url.href)).location!)).toBe('invalid');

    const replayed = await callbackFor(subject);
    await sessionOf({ visit: replayed.visit, landing: (await replayed.visit(onNode(replayed.callback))).location! });
    expect(refusal((await replayed.visit(onNode(replayed.callback))).location!)).toBe('expired');

    const elsewhere = await callbackFor(subject);
    expect(refusal((await browser()(onNode(elsewhere.callback))).location!)).toBe('expired');
  });

  it.each<[string, IdTokenTamper]>([
    ['another nonce', (claims) => ({ claims: { ...claims, nonce: 'not-this-flow' } })],
    ['another audience', (claims) => ({ claims: { ...claims, aud: 'another-client', azp: 'another-client' } })],
    ['another issuer', (claims) => ({ claims: { ...claims, iss: 'http://127.0.0.1:1' } })],
    ['an expired token', (claims) => ({ claims: { ...claims, iat: Number(claims.iat) - 3600, exp: Number(claims.iat) - 1800 } })],
    ['a signature by another key', (claims) => ({ claims, key: provider.foreignKey })],
  ])('refuses an ID token with %s', async (_case, tamper) => {
    const { subject } = providerAccount();
    const { visit, callback } = await callbackFor(subject);
    provider.tamperNextIdToken(tamper);
    expect(refusal((await visit(onNode(callback))).location!)).toBe('invalid');
  });

  it('refuses an ID token that expired on the way, by the server clock', async () => {
    const { subject } = providerAccount();
    const { visit, callback } = await callbackFor(subject);
    // The provider's tokens live 60 seconds, and 30 more are tolerated; the flow lives 5 minutes.
    server.clock.advance(2 * 60 * 1000);
    try {
      expect(refusal((await visit(onNode(callback))).location!)).toBe('invalid');
    } finally {
      server.clock.advance(-2 * 60 * 1000);
    }
  });

  it('refuses a suspended account with the suspension message', async () => {
    const { subject } = providerAccount();
    const { user } = await sessionOf(await signIn(subject));
    await server.container.accounts.setSuspended(user.id, true);
    expect(refusal(await signIn(subject))).toBe('suspended');
  });

  it('makes members of OIDC_ADMIN_GROUP operators, as long as the provider says so', async () => {
    const { subject, email } = providerAccount({ groups: [ADMIN_GROUP] });
    const operator = await sessionOf(await signIn(subject));
    expect(operator.user.role).toBe('admin');
    expect((await server.request('GET', '/api/admin/stats', { token: operator.token })).status).toBe(200);
    provider.setAccount(subject, { email, email_verified: true, groups: ['staff'] });
    expect((await sessionOf(await signIn(subject))).user.role).toBe('user');
  });

  it('asks an account without a password to sign in at the provider again before it is deleted', async () => {
    const { subject } = providerAccount();
    const other = providerAccount();
    const { token } = await sessionOf(await signIn(subject));
    await sessionOf(await signIn(other.subject));
    const refused = await server.request('DELETE', '/api/user/account', { token, body: { password: '' } });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('REAUTHENTICATION_REQUIRED');

    // Someone else at the provider does not confirm this account.
    const wrong = await reauthenticate(token, other.subject);
    expect(wrong.pathname).toBe('/settings');
    expect(wrong.searchParams.get('sso')).toBe('other-account');
    expect((await server.request('DELETE', '/api/user/account', { token, body: { password: '' } })).status).toBe(403);

    const confirmed = await reauthenticate(token, subject);
    expect(`${confirmed.pathname}?${confirmed.searchParams}`).toBe('/settings?sso=reauthenticated');
    expect((await server.request('DELETE', '/api/user/account', { token, body: { password: '' } })).status).toBe(200);
  });

  it('finishes on another node a sign-in begun on this one', async () => {
    const other = await server.startNode();
    try {
      const { subject, email } = providerAccount();
      const { visit, callback } = await callbackFor(subject, browser(), server);
      const landing = (await visit(onNode(callback, other))).location!;
      expect((await sessionOf({ visit, landing }, server)).user.email).toBe(email);
    } finally {
      await other.close();
    }
  });
});

describe('a first password for an account made through single sign-on', () => {
  it('is set on the Profile page after confirming with the provider, and signs in from then on', async () => {
    const { subject, email } = providerAccount();
    const { token } = await sessionOf(await signIn(subject));
    const body = { currentPassword: '', newPassword: 'a first password' };
    expect((await server.request('PUT', '/api/user/password', { token, body })).body.code).toBe('REAUTHENTICATION_REQUIRED');
    await reauthenticate(token, subject);
    expect((await server.request('PUT', '/api/user/password', { token, body })).status).toBe(200);
    const login = await server.request('POST', '/api/auth/login', { body: { email, password: body.newPassword } });
    expect(login.status).toBe(200);
    expect(login.body.user.hasPassword).toBe(true);
  });
});

describe('password sign-in for operators only (PASSWORD_SIGN_IN=admins-only)', () => {
  it('refuses everyone else’s password sign-in and registration, and keeps the operators’', async () => {
    const operatorEmail = 'operator@example.com';
    // Listed but never verified: not an operator yet, so no password sign-in either.
    const unprovenEmail = 'unproven@example.com';
    const strict = await startTestServer({
      env: { ...ssoEnv(), PASSWORD_SIGN_IN: 'admins-only', ADMIN_EMAILS: `${operatorEmail},${unprovenEmail}` },
    });
    try {
      expect((await strict.request('GET', '/api/auth/methods')).body.passwordSignIn).toBe('admins-only');
      const operator = await createVerifiedUser(strict, { email: operatorEmail });
      expect(
        (await strict.request('POST', '/api/auth/login', { body: { email: operator.email, password: operator.password } })).status,
      ).toBe(200);
      const register = await strict.request('POST', '/api/auth/register', {
        body: { firstName: 'Eve', lastName: 'Else', email: 'eve@example.com', password: 'a long enough password' },
      });
      expect(register.status).toBe(403);
      expect(register.body.code).toBe('PASSWORD_SIGN_IN_OFF');
      const unproven = await createUser(strict, { email: unprovenEmail });
      const refused = await strict.request('POST', '/api/auth/login', { body: { email: unproven.email, password: unproven.password } });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('PASSWORD_SIGN_IN_OFF');
    } finally {
      await strict.close();
    }
  });
});
