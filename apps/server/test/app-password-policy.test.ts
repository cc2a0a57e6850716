import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { totpCode } from '../src/lib/totp.ts';
import { enableTwoFactor, mailedToken } from './helpers/factories.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

// The app-password policy (docs/decisions/0037-app-password-policy.md): an app password is a
// way in that outlives the session that made it, so making one takes what signing in
// takes, tells the owner, and a reset can end them all.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

let addressCounter = 0;
/** A client address no other test counts failures for. */
const freshAddress = () => `127.0.4.${++addressCounter}`;

const create = (token: string, body: unknown, from = freshAddress()) =>
  server.request('POST', '/api/user/app-passwords', { token, body, from });
const listOf = async (token: string) =>
  (await server.request('GET', '/api/user/app-passwords', { token })).body.appPasswords as Array<{ name: string }>;
const basicAuth = (email: string, password: string) => `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;
const propfind = (email: string, password: string, userAgent: string, from = '127.0.4.250') =>
  server.request('PROPFIND', '/dav/', {
    headers: { depth: '0', authorization: basicAuth(email, password), 'user-agent': userAgent },
    from,
  });

/** The mails queued for an address, newest first. */
async function mailsTo(email: string) {
  return server.container.database.db
    .selectFrom('mail_queue')
    .select(['subject', 'text_body'])
    .where('recipient', '=', email)
    .orderBy('created_at', 'desc')
    .execute();
}

/** An app password made the way the Settings page makes one; its answer, secret included. */
async function appPasswordFor(user: { token: string; password: string }, name = 'Laptop') {
  const made = await create(user.token, { name, password: user.password });
  expect(made.status).toBe(201);
  return made.body as { id: string; password: string };
}

async function activityOf(token: string) {
  return (await server.request('GET', '/api/user/overview', { token })).body.activity as Array<{
    type: string;
    details: Record<string, string>;
  }>;
}

describe('creating an app password', () => {
  it('takes the account password: none or a wrong one is a 400 and makes nothing', async () => {
    const user = await createUser(server);
    const missing = await create(user.token, { name: 'Laptop' });
    expect(missing.status).toBe(400);
    expect(typeof missing.body.error).toBe('string');
    const wrong = await create(user.token, { name: 'Laptop', password: 'not the password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'INCORRECT_PASSWORD', error: expect.any(String) });
    expect(await listOf(user.token)).toEqual([]);
    expect((await create(user.token, { name: 'Laptop', password: user.password })).status).toBe(201);
  });

  it('counts wrong passwords against the sign-in limits of the account and address', async () => {
    const user = await createUser(server);
    const address = freshAddress();
    for (let index = 0; index < 10; index += 1)
      expect((await create(user.token, { name: 'Laptop', password: `wrong ${index}` }, address)).status).toBe(400);
    const limited = await create(user.token, { name: 'Laptop', password: user.password }, address);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // The sign-in form of that address is held back too.
    expect(
      (await server.request('POST', '/api/auth/login', { body: { email: user.email, password: user.password }, from: address })).status,
    ).toBe(429);
  });

  it('takes a current code as well while two-factor sign-in is on', async () => {
    const user = await createUser(server);
    const secret = await enableTwoFactor(server, user.token);
    const noCode = await create(user.token, { name: 'Phone', password: user.password });
    expect(noCode.status).toBe(400);
    expect(noCode.body.code).toBe('TWO_FACTOR_REQUIRED');
    const wrongCode = await create(user.token, { name: 'Phone', password: user.password, totpCode: '000000' });
    expect(wrongCode.status).toBe(400);
    expect(wrongCode.body.code).toBe('INVALID_TWO_FACTOR_CODE');
    expect(await listOf(user.token)).toEqual([]);
    server.clock.advance(30_000);
    const made = await create(user.token, { name: 'Phone', password: user.password, totpCode: totpCode(secret, server.clock.now()) });
    expect(made.status).toBe(201);
  });

  it("mails the owner, in the account's language, naming the app password", async () => {
    const user = await createUser(server);
    expect((await create(user.token, { name: 'Work laptop', password: user.password })).status).toBe(201);
    const mail = (await mailsTo(user.email)).find(
      (queued) => queued.subject === 'A new app password was created for your CloudVault account',
    );
    expect(mail?.text_body).toContain('“Work laptop”');

    const settings = (await server.request('GET', '/api/user/settings', { token: user.token })).body.settings;
    settings.appearance.language = 'de';
    expect((await server.request('PUT', '/api/user/settings', { token: user.token, body: settings })).status).toBe(200);
    await appPasswordFor(user, 'Büro-PC');
    const german = (await mailsTo(user.email)).find(
      (queued) => queued.subject === 'Für Ihr CloudVault-Konto wurde ein neues App-Passwort erstellt',
    );
    expect(german?.text_body).toContain('„Büro-PC“');
  });

  it('mails the owner even with security alerts turned off, as a stolen session could turn them off first', async () => {
    const user = await createUser(server);
    const settings = (await server.request('GET', '/api/user/settings', { token: user.token })).body.settings;
    settings.notifications.securityAlerts = false;
    settings.notifications.email = false;
    expect((await server.request('PUT', '/api/user/settings', { token: user.token, body: settings })).status).toBe(200);
    await appPasswordFor(user, 'Tablet');
    expect((await mailsTo(user.email)).map((queued) => queued.subject)).toContain(
      'A new app password was created for your CloudVault account',
    );
  });
});

describe('a password change', () => {
  it('keeps the app passwords and says how many there are', async () => {
    const user = await createUser(server);
    await appPasswordFor(user, 'Laptop');
    await appPasswordFor(user, 'Phone');
    const changed = await server.request('PUT', '/api/user/password', {
      token: user.token,
      body: { currentPassword: user.password, newPassword: 'a brand new secret' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ message: 'Password changed successfully!', appPasswordsRemaining: 2 });
    expect(await listOf(user.token)).toHaveLength(2);
  });
});

describe('a password reset', () => {
  async function resetWith(user: { email: string }, extra: Record<string, unknown>) {
    expect((await server.request('POST', '/api/auth/forgot-password', { body: { email: user.email }, from: freshAddress() })).status).toBe(
      202,
    );
    const token = await mailedToken(server, user.email, '/reset-password');
    return server.request('POST', '/api/auth/reset-password', { body: { token, password: 'reset to this', ...extra } });
  }
  const appPasswordRows = async (userId: string) =>
    (await server.container.database.db.selectFrom('app_passwords').select('id').where('user_id', '=', userId).execute()).length;

  it('revokes every app password when the field is left out', async () => {
    const user = await createUser(server);
    const made = await appPasswordFor(user, 'Laptop');
    expect((await resetWith(user, {})).status).toBe(200);
    expect(await appPasswordRows(user.user.id)).toBe(0);
    expect((await propfind(user.email, made.password, 'rclone/v1.60.1')).status).toBe(401);
  });

  it('revokes every app password when asked to, and keeps them when told not to', async () => {
    const revoking = await createUser(server);
    await appPasswordFor(revoking, 'Laptop');
    expect((await resetWith(revoking, { revokeAppPasswords: true })).status).toBe(200);
    expect(await appPasswordRows(revoking.user.id)).toBe(0);

    const keeping = await createUser(server);
    const made = await appPasswordFor(keeping, 'Laptop');
    expect((await resetWith(keeping, { revokeAppPasswords: false })).status).toBe(200);
    expect(await appPasswordRows(keeping.user.id)).toBe(1);
    expect((await propfind(keeping.email, made.password, 'rclone/v1.60.1')).status).toBe(207);
  });

  it('refuses a field that is not a boolean with a 400, changing nothing', async () => {
    const user = await createUser(server);
    await appPasswordFor(user, 'Laptop');
    const refused = await resetWith(user, { revokeAppPasswords: 'yes please' });
    expect(refused.status).toBe(400);
    expect(await appPasswordRows(user.user.id)).toBe(1);
  });
});

describe('turning two-factor sign-in on', () => {
  it('keeps the app passwords: they are how devices sign in from then on', async () => {
    const user = await createUser(server);
    const made = await appPasswordFor(user, 'Laptop');
    await enableTwoFactor(server, user.token);
    expect(await listOf(user.token)).toHaveLength(1);
    expect((await propfind(user.email, made.password, 'rclone/v1.60.1')).status).toBe(207);
  });
});

describe('WebDAV sign-ins with the account password', () => {
  it('appear in the activity once a day per device, and alert a new device like a web sign-in', async () => {
    const user = await createUser(server);
    for (let request = 0; request < 3; request += 1) expect((await propfind(user.email, user.password, 'rclone/v1.60.1')).status).toBe(207);
    const signIns = (await activityOf(user.token)).filter((entry) => entry.type === 'sign_in');
    // Registration records no sign-in: these are the WebDAV client's alone.
    expect(signIns.map((entry) => entry.details.device)).toEqual(['rclone (WebDAV)']);
    const alerts = (await mailsTo(user.email)).filter((mail) => mail.subject === 'New sign-in to your CloudVault account');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.text_body).toContain('rclone (WebDAV)');

    // A day later the same device signs in again: recorded, but not news.
    server.clock.advance(24 * 60 * 60 * 1000 + 1000);
    expect((await propfind(user.email, user.password, 'rclone/v1.60.1')).status).toBe(207);
    expect((await activityOf(user.token)).filter((entry) => entry.type === 'sign_in')).toHaveLength(2);
    expect((await mailsTo(user.email)).filter((mail) => mail.subject === 'New sign-in to your CloudVault account')).toHaveLength(1);

    // Another client is a new device.
    expect((await propfind(user.email, user.password, 'Microsoft-WebDAV-MiniRedir/10.0.19045')).status).toBe(207);
    const newest = (await mailsTo(user.email)).filter((mail) => mail.subject === 'New sign-in to your CloudVault account');
    expect(newest).toHaveLength(2);
    expect(newest[0]?.text_body).toContain('Windows Explorer (WebDAV)');
  });

  it('are recorded once a day across two nodes', async () => {
    const other = await server.startNode();
    try {
      const user = await createUser(server);
      const basicOn = (node: TestServer) =>
        node.request('PROPFIND', '/dav/', {
          headers: { depth: '0', authorization: basicAuth(user.email, user.password), 'user-agent': 'davfs2/1.7.0' },
          from: '127.0.4.251',
        });
      for (const node of [server, other, server, other]) expect((await basicOn(node)).status).toBe(207);
      expect((await activityOf(user.token)).filter((entry) => entry.type === 'sign_in').map((entry) => entry.details.device)).toEqual([
        'davfs2 (WebDAV)',
      ]);
    } finally {
      await other.close();
    }
  });

  it('are not recorded for app passwords, which a device uses on every request', async () => {
    const user = await createUser(server);
    const made = await appPasswordFor(user, 'Laptop');
    expect((await propfind(user.email, made.password, 'rclone/v1.60.1')).status).toBe(207);
    expect((await activityOf(user.token)).filter((entry) => entry.type === 'sign_in')).toEqual([]);
  });
});
