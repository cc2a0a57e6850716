import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { totpCode } from '../src/lib/totp.ts';
import { enableTwoFactor } from './helpers/factories.ts';
import { type Site, SoftwarePasskey } from './helpers/software-authenticator.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

let server: TestServer;
let site: Site;
beforeAll(async () => {
  server = await startTestServer();
  const publicUrl = new URL(server.container.config.publicUrl);
  site = { origin: publicUrl.origin, rpId: publicUrl.hostname };
});
afterAll(async () => {
  await server.close();
});

type User = Awaited<ReturnType<typeof createUser>>;
let addressCounter = 0;
/** A client address no other test counts sign-in failures for. */
const freshAddress = () => `127.30.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}`;

async function registrationOptions(user: User) {
  const answer = await server.request('POST', '/api/user/passkeys/options', { token: user.token });
  expect(answer.status).toBe(200);
  return answer.body as { ceremonyId: string; options: { challenge: string; user: { id: string }; rp: { id: string } } };
}

async function addPasskey(user: User, passkey = new SoftwarePasskey(site), name = 'Laptop') {
  const { ceremonyId, options } = await registrationOptions(user);
  const added = await server.request('POST', '/api/user/passkeys', {
    token: user.token,
    body: { ceremonyId, name, credential: passkey.register(options) },
  });
  expect(added.status).toBe(201);
  return { passkey, id: added.body.id as string };
}

async function signInOptions() {
  const answer = await server.request('POST', '/api/auth/passkey/options');
  expect(answer.status).toBe(200);
  return answer.body as { ceremonyId: string; options: { challenge: string; rpId: string; allowCredentials?: unknown[] } };
}

async function signInWith(passkey: SoftwarePasskey, from = freshAddress()) {
  const { ceremonyId, options } = await signInOptions();
  return server.request('POST', '/api/auth/passkey', { body: { ceremonyId, credential: passkey.assert(options) }, from });
}

const listOf = async (user: User) => (await server.request('GET', '/api/user/passkeys', { token: user.token })).body.passkeys;

describe('passkeys', () => {
  it('are added, listed, renamed, and sign in with no e-mail typed', async () => {
    const user = await createUser(server);
    const { ceremonyId, options } = await registrationOptions(user);
    // A discoverable credential with user verification, made for PUBLIC_URL's host.
    expect(options).toMatchObject({
      rp: { id: site.rpId },
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    const passkey = new SoftwarePasskey(site);
    const added = await server.request('POST', '/api/user/passkeys', {
      token: user.token,
      body: { ceremonyId, name: '  Work laptop  ', credential: passkey.register(options) },
    });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      id: expect.any(String),
      name: 'Work laptop',
      createdAt: server.clock.now().toISOString(),
      lastUsedAt: null,
      backedUp: false,
    });

    // The owner is told, whatever the notification settings: a stolen session could add one.
    const mailed = await server.container.database.db
      .selectFrom('mail_queue')
      .select(['subject', 'text_body'])
      .where('recipient', '=', user.email)
      .where('subject', '=', 'A passkey was added to your CloudVault account')
      .execute();
    expect(mailed).toHaveLength(1);
    expect(mailed[0]?.text_body).toContain('“Work laptop”');

    // The next registration is told not to make a second passkey on the same authenticator.
    expect((await registrationOptions(user)).options).toMatchObject({ excludeCredentials: [{ id: passkey.id, type: 'public-key' }] });

    server.clock.advance(60_000);
    const signIn = await server.request('POST', '/api/auth/passkey/options');
    expect(signIn.body.options.allowCredentials ?? []).toEqual([]);
    const signedIn = await server.request('POST', '/api/auth/passkey', {
      body: { ceremonyId: signIn.body.ceremonyId, credential: passkey.assert(signIn.body.options) },
      from: freshAddress(),
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user).toMatchObject({ id: user.user.id, email: user.email });
    const profile = await server.request('GET', '/api/auth/profile', { token: signedIn.body.token });
    expect(profile.body.user.id).toBe(user.user.id);
    expect(await listOf(user)).toEqual([{ ...added.body, lastUsedAt: server.clock.now().toISOString() }]);

    const renamed = await server.request('PATCH', `/api/user/passkeys/${added.body.id}`, { token: user.token, body: { name: ' Phone ' } });
    expect(renamed).toMatchObject({ status: 200, body: { name: 'Phone' } });
    expect((await listOf(user))[0].name).toBe('Phone');
  });

  it('answer bad input with a clear 400, and signed out with 401', async () => {
    const user = await createUser(server);
    const { ceremonyId, options } = await registrationOptions(user);
    const passkey = new SoftwarePasskey(site);
    const post = (body: Record<string, unknown>) => server.request('POST', '/api/user/passkeys', { token: user.token, body });
    const blank = await post({ ceremonyId, name: '   ', credential: passkey.register(options) });
    expect(blank).toMatchObject({ status: 400, body: { code: 'PASSKEY_NAME_REQUIRED' } });
    expect(await post({ ceremonyId, name: 'x'.repeat(65), credential: passkey.register(options) })).toMatchObject({
      status: 400,
      body: { code: 'PASSKEY_NAME_TOO_LONG' },
    });
    expect((await post({ ceremonyId, name: 'Key', credential: { id: 'not base64url!' } })).status).toBe(400);
    expect((await post({ ceremonyId, name: 'Key', credential: passkey.register(options), extra: 1 })).status).toBe(400);
    // A bad name leaves the ceremony for the next try.
    expect((await post({ ceremonyId, name: 'x'.repeat(64), credential: passkey.register(options) })).status).toBe(201);

    const malformed = await server.request('POST', '/api/auth/passkey', {
      body: { ceremonyId: 'x', credential: {} },
      from: freshAddress(),
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toEqual(expect.any(String));
    // Valid shapes, made-up contents: the ceremony is unknown.
    const unknown = await server.request('POST', '/api/auth/passkey', {
      body: { ceremonyId: 'nothing', credential: passkey.assert({ challenge: 'AAAA' }) },
      from: freshAddress(),
    });
    expect(unknown).toMatchObject({ status: 400, body: { code: 'PASSKEY_CEREMONY_EXPIRED' } });
    const garbage = await server.request('POST', '/api/user/passkeys', {
      token: user.token,
      body: {
        ceremonyId: (await registrationOptions(user)).ceremonyId,
        name: 'Key',
        credential: { ...passkey.register(options), response: { clientDataJSON: 'AAAA', attestationObject: 'AAAA' } },
      },
    });
    expect(garbage).toMatchObject({ status: 400, body: { code: 'PASSKEY_NOT_VERIFIED' } });

    expect((await server.request('GET', '/api/user/passkeys')).status).toBe(401);
    expect((await server.request('POST', '/api/user/passkeys/options')).status).toBe(401);
  });

  it('are at most 50 per account', async () => {
    const user = await createUser(server);
    for (let added = 0; added < 50; added += 1) await addPasskey(user, undefined, `Key ${added}`);
    const { ceremonyId, options } = await registrationOptions(user);
    const refused = await server.request('POST', '/api/user/passkeys', {
      token: user.token,
      body: { ceremonyId, name: 'One more', credential: new SoftwarePasskey(site).register(options) },
    });
    expect(refused).toMatchObject({ status: 409, body: { code: 'PASSKEY_LIMIT' } });
    expect(await listOf(user)).toHaveLength(50);
  });

  it("keep another user's passkey out of reach: 404", async () => {
    const owner = await createUser(server);
    const other = await createUser(server);
    const { id } = await addPasskey(owner);
    expect((await server.request('PATCH', `/api/user/passkeys/${id}`, { token: other.token, body: { name: 'Mine' } })).status).toBe(404);
    expect((await server.request('DELETE', `/api/user/passkeys/${id}`, { token: other.token })).status).toBe(404);
    expect(await listOf(other)).toEqual([]);
    expect((await listOf(owner))[0].name).toBe('Laptop');
  });

  it('refuse a replayed ceremony, a replayed answer, an expired ceremony and another user’s registration ceremony', async () => {
    const user = await createUser(server);
    const { passkey } = await addPasskey(user, new SoftwarePasskey(site, { counting: true }));
    const { ceremonyId, options } = await signInOptions();
    const answer = passkey.assert(options);
    expect(
      (await server.request('POST', '/api/auth/passkey', { body: { ceremonyId, credential: answer }, from: freshAddress() })).status,
    ).toBe(200);
    // The same answer again: its ceremony is used up.
    const replayed = await server.request('POST', '/api/auth/passkey', { body: { ceremonyId, credential: answer }, from: freshAddress() });
    expect(replayed).toMatchObject({ status: 400, body: { code: 'PASSKEY_CEREMONY_EXPIRED' } });
    // ... and under a fresh ceremony its challenge is the wrong one.
    const fresh = await signInOptions();
    const underNew = await server.request('POST', '/api/auth/passkey', {
      body: { ceremonyId: fresh.ceremonyId, credential: answer },
      from: freshAddress(),
    });
    expect(underNew).toMatchObject({ status: 401, body: { code: 'PASSKEY_NOT_RECOGNISED' } });

    const late = await signInOptions();
    server.clock.advance(5 * 60_000 + 1);
    const expired = await server.request('POST', '/api/auth/passkey', {
      body: { ceremonyId: late.ceremonyId, credential: passkey.assert(late.options) },
      from: freshAddress(),
    });
    expect(expired).toMatchObject({ status: 400, body: { code: 'PASSKEY_CEREMONY_EXPIRED' } });

    const other = await createUser(server);
    const { ceremonyId: othersCeremony, options: othersOptions } = await registrationOptions(other);
    const stolen = await server.request('POST', '/api/user/passkeys', {
      token: user.token,
      body: { ceremonyId: othersCeremony, name: 'Key', credential: new SoftwarePasskey(site).register(othersOptions) },
    });
    expect(stolen).toMatchObject({ status: 400, body: { code: 'PASSKEY_CEREMONY_EXPIRED' } });
  });

  it('refuse answers made for another site, a counter gone backwards, and an unknown passkey', async () => {
    const user = await createUser(server);
    const { passkey } = await addPasskey(user, new SoftwarePasskey(site, { counting: true }));
    // The same key, as a phishing page would relay it: its origin, or its RP ID, is not ours.
    const onAnotherOrigin = Object.assign(Object.create(SoftwarePasskey.prototype) as SoftwarePasskey, passkey, {
      site: { ...site, origin: 'https://cloudvault.example.net' },
    });
    expect((await signInWith(onAnotherOrigin)).body.code).toBe('PASSKEY_NOT_RECOGNISED');
    const forAnotherRp = Object.assign(Object.create(SoftwarePasskey.prototype) as SoftwarePasskey, passkey, {
      site: { ...site, rpId: 'cloudvault.example.net' },
    });
    expect((await signInWith(forAnotherRp)).status).toBe(401);
    // Registration from another origin is refused too.
    const { ceremonyId, options } = await registrationOptions(user);
    const foreign = new SoftwarePasskey({ origin: 'https://evil.example', rpId: site.rpId });
    const registered = await server.request('POST', '/api/user/passkeys', {
      token: user.token,
      body: { ceremonyId, name: 'Key', credential: foreign.register(options) },
    });
    expect(registered).toMatchObject({ status: 400, body: { code: 'PASSKEY_NOT_VERIFIED' } });

    expect((await signInWith(passkey)).status).toBe(200);
    // A clone that lags behind: it reports 1 after 2 was seen.
    passkey.counter = 0;
    expect((await signInWith(passkey)).body.code).toBe('PASSKEY_NOT_RECOGNISED');

    expect((await signInWith(new SoftwarePasskey(site))).status).toBe(401);
  });

  it('sign in a suspended account with 403, as a password does', async () => {
    const user = await createUser(server);
    const { passkey } = await addPasskey(user);
    await server.container.accounts.setSuspended(user.user.id, true);
    expect((await signInWith(passkey)).body.code).toBe('ACCOUNT_SUSPENDED');
    await server.container.accounts.setSuspended(user.user.id, false);
    expect((await signInWith(passkey)).status).toBe(200);
  });

  it('stand in for the code of two-factor sign-in; only the account’s own passkey does', async () => {
    const user = await createUser(server);
    const secret = await enableTwoFactor(server, user.token);
    const login = (body: Record<string, unknown>) =>
      server.request('POST', '/api/auth/login', { body: { email: user.email, password: user.password, ...body }, from: freshAddress() });
    expect((await login({})).body).toMatchObject({ code: 'TWO_FACTOR_REQUIRED', twoFactorRequired: true, passkeyAvailable: false });

    const { passkey } = await addPasskey(user);
    expect((await login({})).body).toMatchObject({ code: 'TWO_FACTOR_REQUIRED', passkeyAvailable: true });
    // A wrong password says nothing of passkeys.
    const wrong = await server.request('POST', '/api/auth/login', {
      body: { email: user.email, password: 'not the password' },
      from: freshAddress(),
    });
    expect(wrong.body.passkeyAvailable).toBeUndefined();

    const stranger = await createUser(server);
    const { passkey: strangersPasskey } = await addPasskey(stranger);
    const foreignOptions = await signInOptions();
    const foreign = await login({
      passkey: { ceremonyId: foreignOptions.ceremonyId, credential: strangersPasskey.assert(foreignOptions.options) },
    });
    expect(foreign).toMatchObject({ status: 401, body: { code: 'PASSKEY_NOT_RECOGNISED', twoFactorRequired: true } });

    const own = await signInOptions();
    const signedIn = await login({ passkey: { ceremonyId: own.ceremonyId, credential: passkey.assert(own.options) } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.id).toBe(user.user.id);
    // The code still works.
    server.clock.advance(30_000);
    expect((await login({ totpCode: totpCode(secret, server.clock.now()) })).status).toBe(200);
  });

  it('may all be removed while a password or single sign-on remains; the last way in may not', async () => {
    const user = await createUser(server);
    const { id } = await addPasskey(user);
    expect((await server.request('DELETE', `/api/user/passkeys/${id}`, { token: user.token })).status).toBe(204);
    expect(await listOf(user)).toEqual([]);

    // An account with no password (made through single sign-on, decision 0064), as the database holds it.
    const db = server.container.database.db;
    await db.updateTable('users').set({ password_set: 0 }).where('id', '=', user.user.id).execute();
    const first = await addPasskey(user, undefined, 'Phone');
    const second = await addPasskey(user, undefined, 'Key');
    expect((await server.request('DELETE', `/api/user/passkeys/${first.id}`, { token: user.token })).status).toBe(204);
    const last = await server.request('DELETE', `/api/user/passkeys/${second.id}`, { token: user.token });
    expect(last).toMatchObject({ status: 409, body: { code: 'LAST_SIGN_IN_METHOD', error: expect.stringContaining('only way') } });
    expect((await listOf(user)).map((entry: { name: string }) => entry.name)).toEqual(['Key']);

    const now = server.clock.now().toISOString();
    await db
      .insertInto('single_sign_on_links')
      .values({
        issuer: 'https://id.example',
        subject: user.user.id,
        user_id: user.user.id,
        email: user.email,
        created_at: now,
        last_used_at: now,
      })
      .execute();
    expect((await server.request('DELETE', `/api/user/passkeys/${second.id}`, { token: user.token })).status).toBe(204);
  });
});

describe('passkey ceremonies across nodes', () => {
  it('finish on another node than the one that started them, once', async () => {
    const other = await server.startNode({ ownDataDir: process.env.TEST_DB === 'postgres' });
    try {
      const user = await createUser(server);
      const passkey = new SoftwarePasskey(site);
      const started = await registrationOptions(user);
      const added = await other.request('POST', '/api/user/passkeys', {
        token: user.token,
        body: { ceremonyId: started.ceremonyId, name: 'Laptop', credential: passkey.register(started.options) },
      });
      expect(added.status).toBe(201);

      const { ceremonyId, options } = (await other.request('POST', '/api/auth/passkey/options')).body;
      const answer = { ceremonyId, credential: passkey.assert(options) };
      const signedIn = await server.request('POST', '/api/auth/passkey', { body: answer, from: freshAddress() });
      expect(signedIn.status).toBe(200);
      expect(signedIn.body.user.id).toBe(user.user.id);
      // Used up for every node.
      const replayed = await other.request('POST', '/api/auth/passkey', { body: answer, from: freshAddress() });
      expect(replayed).toMatchObject({ status: 400, body: { code: 'PASSKEY_CEREMONY_EXPIRED' } });

      // One answer sent to both nodes at once: exactly one of them takes the ceremony.
      const raced = (await other.request('POST', '/api/auth/passkey/options')).body;
      const both = { ceremonyId: raced.ceremonyId, credential: passkey.assert(raced.options) };
      const answers = await Promise.all(
        [server, other].map((node) => node.request('POST', '/api/auth/passkey', { body: both, from: freshAddress() })),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    } finally {
      await other.close();
    }
  });
});
