import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { AppError } from '../src/lib/errors.ts';
import { enableTwoFactor, mailedToken } from './helpers/factories.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const APP_PASSWORD = /^([a-km-np-z2-9]{6}-){4}[a-km-np-z2-9]{6}$/;
let addressCounter = 0;
/** A client address no other test counts sign-in failures for. */
const freshAddress = () => `10.20.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}`;

async function createAppPassword(user: { token: string; password: string }, name = 'Laptop') {
  const created = await server.request('POST', '/api/user/app-passwords', { token: user.token, body: { name, password: user.password } });
  expect(created.status).toBe(201);
  return created.body as { id: string; name: string; password: string; createdAt: string };
}

/** What WebDAV's Basic check answers: 200 with the user, or the status of its refusal. */
async function basic(
  email: string,
  password: string,
  clientAddress: string,
): Promise<{ status: number; userId?: string; headers?: Record<string, string> }> {
  try {
    const { userId } = await server.container.appPasswords.authenticateBasic({ email, password, clientAddress });
    return { status: 200, userId };
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, headers: error.headers };
    throw error;
  }
}

const listOf = async (token: string) =>
  (await server.request('GET', '/api/user/app-passwords', { token })).body.appPasswords as Array<Record<string, unknown>>;

describe('app passwords API', () => {
  it('creates one shown once, lists it without its secret, and revokes it', async () => {
    const user = await createUser(server);
    const created = await createAppPassword(user, '  Work laptop  ');
    expect(created).toMatchObject({ name: 'Work laptop', createdAt: server.clock.now().toISOString() });
    expect(created.password).toMatch(APP_PASSWORD);

    const listed = await server.request('GET', '/api/user/app-passwords', { token: user.token });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      appPasswords: [{ id: created.id, name: 'Work laptop', createdAt: created.createdAt, lastUsedAt: null }],
    });
    expect(listed.text).not.toContain(created.password.slice(0, 6));

    expect((await server.request('DELETE', `/api/user/app-passwords/${created.id}`, { token: user.token })).status).toBe(204);
    expect(await listOf(user.token)).toEqual([]);
    expect((await server.request('DELETE', `/api/user/app-passwords/${created.id}`, { token: user.token })).status).toBe(404);
  });

  it('lists the newest first', async () => {
    const user = await createUser(server);
    await createAppPassword(user, 'Phone');
    server.clock.advance(1000);
    await createAppPassword(user, 'Desktop');
    expect((await listOf(user.token)).map((entry) => entry.name)).toEqual(['Desktop', 'Phone']);
  });

  it('refuses a name that is blank, too long, missing or not a string, and unknown fields, with a 400', async () => {
    const user = await createUser(server);
    const post = (body: Record<string, unknown>) =>
      server.request('POST', '/api/user/app-passwords', { token: user.token, body: { password: user.password, ...body } });
    const blank = await post({ name: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body).toMatchObject({ code: 'APP_PASSWORD_NAME_REQUIRED', error: expect.stringContaining('name') });
    expect((await post({ name: 'x'.repeat(100) })).status).toBe(201);
    const long = await post({ name: 'x'.repeat(101) });
    expect(long.status).toBe(400);
    expect(long.body.code).toBe('APP_PASSWORD_NAME_TOO_LONG');
    for (const body of [{}, { name: 42 }, { name: 'ok', extra: true }, { name: 'x'.repeat(5000) }]) {
      const refused = await post(body);
      expect(refused.status).toBe(400);
      expect(typeof refused.body.error).toBe('string');
    }
    expect(await listOf(user.token)).toHaveLength(1);
  });

  it('holds at most 50 per account', async () => {
    const user = await createUser(server);
    for (let index = 0; index < 50; index += 1) await createAppPassword(user, `Device ${index}`);
    const refused = await server.request('POST', '/api/user/app-passwords', {
      token: user.token,
      body: { name: 'One more', password: user.password },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('APP_PASSWORD_LIMIT');
    expect(await listOf(user.token)).toHaveLength(50);
  });

  it("keeps each user to their own: another user's id is a 404 and stays", async () => {
    const owner = await createUser(server);
    const other = await createUser(server);
    const created = await createAppPassword(owner);
    expect(await listOf(other.token)).toEqual([]);
    expect((await server.request('DELETE', `/api/user/app-passwords/${created.id}`, { token: other.token })).status).toBe(404);
    expect(await listOf(owner.token)).toHaveLength(1);
    expect((await server.request('DELETE', '/api/user/app-passwords/not..an-id', { token: owner.token })).status).toBe(400);
  });

  it('needs a session', async () => {
    expect((await server.request('GET', '/api/user/app-passwords')).status).toBe(401);
    expect((await server.request('POST', '/api/user/app-passwords', { body: { name: 'x' } })).status).toBe(401);
    expect((await server.request('DELETE', '/api/user/app-passwords/abc')).status).toBe(401);
  });
});

describe('Basic credentials (WebDAV)', () => {
  it('accept the e-mail with an app password, however the client spaces and cases it, and note when it was used', async () => {
    const user = await createUser(server);
    const created = await createAppPassword(user);
    const address = freshAddress();
    expect(await basic(user.email, created.password, address)).toEqual({ status: 200, userId: user.user.id });
    expect(await basic(user.email.toUpperCase(), created.password.replaceAll('-', '').toUpperCase(), address)).toMatchObject({
      status: 200,
    });
    const firstUse = server.clock.now().toISOString();
    expect((await listOf(user.token))[0]?.lastUsedAt).toBe(firstUse);

    // Written at most once a minute, then again.
    server.clock.advance(30_000);
    await basic(user.email, created.password, address);
    expect((await listOf(user.token))[0]?.lastUsedAt).toBe(firstUse);
    server.clock.advance(31_000);
    await basic(user.email, created.password, address);
    expect((await listOf(user.token))[0]?.lastUsedAt).toBe(server.clock.now().toISOString());
  });

  it('stop accepting an app password the moment it is revoked', async () => {
    const user = await createUser(server);
    const kept = await createAppPassword(user, 'Kept');
    const revoked = await createAppPassword(user, 'Revoked');
    const address = freshAddress();
    expect((await basic(user.email, revoked.password, address)).status).toBe(200);
    await server.request('DELETE', `/api/user/app-passwords/${revoked.id}`, { token: user.token });
    const refused = await basic(user.email, revoked.password, address);
    expect(refused.status).toBe(401);
    expect(refused.headers?.['WWW-Authenticate']).toMatch(/^Basic realm="CloudVault WebDAV"/);
    expect((await basic(user.email, kept.password, address)).status).toBe(200);
  });

  it("refuse another user's app password, and an app password with an unknown e-mail", async () => {
    const owner = await createUser(server);
    const other = await createUser(server);
    const created = await createAppPassword(owner);
    expect((await basic(other.email, created.password, freshAddress())).status).toBe(401);
    expect((await basic('nobody@example.com', created.password, freshAddress())).status).toBe(401);
  });

  it('accept the account password only while two-factor sign-in is off', async () => {
    const user = await createUser(server);
    const created = await createAppPassword(user);
    const address = freshAddress();
    expect(await basic(user.email, user.password, address)).toEqual({ status: 200, userId: user.user.id });
    expect((await basic(user.email, 'not the password', address)).status).toBe(401);

    await enableTwoFactor(server, user.token);
    expect((await basic(user.email, user.password, address)).status).toBe(401);
    expect((await basic(user.email, created.password, address)).status).toBe(200);
  });

  it('follow a password change at once: the old one fails, the new one and the app passwords work', async () => {
    const user = await createUser(server);
    const created = await createAppPassword(user);
    const address = freshAddress();
    expect((await basic(user.email, user.password, address)).status).toBe(200);
    const changed = await server.request('PUT', '/api/user/password', {
      token: user.token,
      body: { currentPassword: user.password, newPassword: 'a brand new secret' },
    });
    expect(changed.status).toBe(200);
    expect((await basic(user.email, user.password, address)).status).toBe(401);
    expect((await basic(user.email, 'a brand new secret', address)).status).toBe(200);
    expect((await basic(user.email, created.password, address)).status).toBe(200);
  });

  it('count failures toward the sign-in limits of that e-mail and address, shared with the sign-in form', async () => {
    const user = await createUser(server);
    const created = await createAppPassword(user);
    const address = '127.0.0.7';
    // A right password takes its attempt back: it never uses the limit up.
    for (let index = 0; index < 12; index += 1) expect((await basic(user.email, user.password, address)).status).toBe(200);
    for (let index = 0; index < 10; index += 1) expect((await basic(user.email, `wrong ${index}`, address)).status).toBe(401);

    const limited = await basic(user.email, user.password, address);
    expect(limited.status).toBe(429);
    expect(limited.headers?.['Retry-After']).toMatch(/^\d+$/);
    // The sign-in form from that address is refused as well; from elsewhere the owner still gets in.
    expect(
      (await server.request('POST', '/api/auth/login', { body: { email: user.email, password: user.password }, from: address })).status,
    ).toBe(429);
    expect((await basic(user.email, user.password, freshAddress())).status).toBe(200);
    // An app password cannot be guessed, so the limit does not stop a device that has one.
    expect((await basic(user.email, created.password, address)).status).toBe(200);

    server.clock.advance(15 * 60 * 1000 + 1000);
    expect((await basic(user.email, user.password, address)).status).toBe(200);
  });

  it('count failed sign-ins of the form toward Basic auth too', async () => {
    const user = await createUser(server);
    const address = '127.0.0.8';
    for (let index = 0; index < 10; index += 1) {
      expect(
        (await server.request('POST', '/api/auth/login', { body: { email: user.email, password: `wrong ${index}` }, from: address }))
          .status,
      ).toBe(401);
    }
    expect((await basic(user.email, user.password, address)).status).toBe(429);
  });

  it('survive a password reset that keeps them, which still ends the old account password', async () => {
    const user = await createUser(server);
    const created = await createAppPassword(user);
    expect((await server.request('POST', '/api/auth/forgot-password', { body: { email: user.email } })).status).toBe(202);
    const token = await mailedToken(server, user.email, '/reset-password');
    expect(
      (await server.request('POST', '/api/auth/reset-password', { body: { token, password: 'reset to this', revokeAppPasswords: false } }))
        .status,
    ).toBe(200);
    const address = freshAddress();
    expect((await basic(user.email, created.password, address)).status).toBe(200);
    expect((await basic(user.email, user.password, address)).status).toBe(401);
    expect((await basic(user.email, 'reset to this', address)).status).toBe(200);
  });
});

describe('WebDAV requests', () => {
  const propfind = (email: string, password: string, from: string) =>
    server.request('PROPFIND', '/dav/', {
      headers: { depth: '0', authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}` },
      from,
    });

  it('sign in with an app password until it is revoked, then are asked for credentials', async () => {
    const user = await createUser(server);
    const created = await createAppPassword(user);
    expect((await propfind(user.email, created.password, '127.0.0.12')).status).toBe(207);
    await server.request('DELETE', `/api/user/app-passwords/${created.id}`, { token: user.token });
    const refused = await propfind(user.email, created.password, '127.0.0.12');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
  });

  it('answer 429 with Retry-After once the sign-in limit of that e-mail and address is reached', async () => {
    const user = await createUser(server);
    for (let index = 0; index < 10; index += 1) expect((await propfind(user.email, `wrong ${index}`, '127.0.0.13')).status).toBe(401);
    const limited = await propfind(user.email, user.password, '127.0.0.13');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await propfind(user.email, user.password, '127.0.0.14')).status).toBe(207);
  });
});

describe('with two nodes', () => {
  it('a revoke or a password change on one node holds on the other at once', async () => {
    const other = await server.startNode();
    try {
      const user = await createUser(server);
      const created = await createAppPassword(user);
      const onOther = (password: string) =>
        other.container.appPasswords.authenticateBasic({ email: user.email, password, clientAddress: '10.30.0.1' }).then(
          () => 200,
          (error: AppError) => error.status,
        );
      expect(await onOther(created.password)).toBe(200);
      expect(await onOther(user.password)).toBe(200);
      await server.request('DELETE', `/api/user/app-passwords/${created.id}`, { token: user.token });
      await server.request('PUT', '/api/user/password', {
        token: user.token,
        body: { currentPassword: user.password, newPassword: 'changed elsewhere' },
      });
      expect(await onOther(created.password)).toBe(401);
      // The other node remembered the old password as verified; the new hash makes it check again.
      expect(await onOther(user.password)).toBe(401);
      expect(await onOther('changed elsewhere')).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe('where app passwords are not accepted', () => {
  it('neither by the sign-in form nor as a bearer token', async () => {
    const user = await createUser(server);
    const created = await createAppPassword(user);
    const login = await server.request('POST', '/api/auth/login', {
      body: { email: user.email, password: created.password },
      from: '127.0.0.9',
    });
    expect(login.status).toBe(401);
    expect((await server.request('GET', '/api/auth/profile', { token: created.password })).status).toBe(401);
    expect(
      (
        await server.request('GET', '/api/files', {
          headers: { authorization: `Basic ${Buffer.from(`${user.email}:${created.password}`).toString('base64')}` },
        })
      ).status,
    ).toBe(401);
  });
});

describe('account deletion', () => {
  it("removes the account's app passwords with it", async () => {
    const user = await createUser(server);
    const created = await createAppPassword(user);
    expect((await server.request('DELETE', '/api/user/account', { token: user.token, body: { password: user.password } })).status).toBe(
      200,
    );
    const rows = await server.container.database.db.selectFrom('app_passwords').select('id').where('user_id', '=', user.user.id).execute();
    expect(rows).toEqual([]);
    expect((await basic(user.email, created.password, freshAddress())).status).toBe(401);
  });
});
