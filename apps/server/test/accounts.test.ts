import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, newUserInput } from '@cloudvault/test-support/accounts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const DAY = 24 * 60 * 60 * 1000;

describe('POST /api/auth/register', () => {
  it('creates a Free account with the 500 MB limit and returns a working token', async () => {
    const input = newUserInput({ firstName: '  Grace ', lastName: ' Hopper ', email: '  Grace.Hopper@Example.COM ' });
    const response = await server.request('POST', '/api/auth/register', { body: input });

    expect(response.status).toBe(201);
    expect(response.body.user).toEqual({
      id: expect.any(String),
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace.hopper@example.com',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      plan: 'FREE',
      storageUsed: 0,
      storageLimit: 524288000,
      twoFactorEnabled: false,
      emailVerified: false,
      role: 'user',
      hasPassword: true,
    });
    expect(response.text).not.toContain(input.password);
    expect(response.text).not.toMatch(/argon2/);

    const profile = await server.request('GET', '/api/auth/profile', { token: response.body.token });
    expect(profile.status).toBe(200);
    expect(profile.body.user).toEqual(response.body.user);
  });

  it('stores the password as an argon2id hash', async () => {
    const { email } = await createUser(server);
    const row = await server.container.database.db
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
  });

  it.each([
    ['firstName', { firstName: '   ' }, 'First name is required'],
    ['lastName', { lastName: '' }, 'Last name is required'],
    ['email form', { email: 'not-an-email' }, 'Please enter a valid e-mail address'],
    ['email with a space', { email: 'a b@example.com' }, 'Please enter a valid e-mail address'],
    ['short password', { password: '12345' }, 'Password must be at least 6 characters long'],
  ])('rejects a bad %s with 400 and a readable message', async (_case, overrides, message) => {
    const response = await server.request('POST', '/api/auth/register', { body: newUserInput(overrides) });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: message });
  });

  it.each(['firstName', 'lastName', 'email', 'password'])('rejects a missing %s with 400', async (field) => {
    const input: Record<string, string> = newUserInput();
    delete input[field];
    const response = await server.request('POST', '/api/auth/register', { body: input });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe(`${field} is required`);
  });

  it('rejects wrong types instead of converting them', async () => {
    const response = await server.request('POST', '/api/auth/register', {
      body: { ...newUserInput(), password: 123456789 },
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/password/);
  });

  it('rejects oversized fields with 400', async () => {
    const response = await server.request('POST', '/api/auth/register', {
      body: newUserInput({ firstName: 'x'.repeat(256) }),
    });
    expect(response.status).toBe(400);
  });

  it('answers 409 when the e-mail is taken, whatever its case', async () => {
    const { email } = await createUser(server);
    const response = await server.request('POST', '/api/auth/register', {
      body: newUserInput({ email: ` ${email.toUpperCase()} ` }),
    });
    expect(response.status).toBe(409);
    expect(response.body.error).toBe('An account with this e-mail already exists');
    const count = await server.container.database.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('lets only one of two simultaneous registrations of an e-mail succeed', async () => {
    const input = newUserInput();
    const statuses = await Promise.all([input, input, input].map((body) => server.request('POST', '/api/auth/register', { body })));
    expect(statuses.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });
});

describe('POST /api/auth/login', () => {
  it('signs in with the e-mail in any case and surrounding spaces', async () => {
    const { email, password, user } = await createUser(server);
    const response = await server.request('POST', '/api/auth/login', {
      body: { email: `  ${email.toUpperCase()}`, password },
    });
    expect(response.status).toBe(200);
    expect(response.body.user).toEqual(user);
    expect(typeof response.body.token).toBe('string');
  });

  it('answers 401 with the same message for a wrong password and an unknown e-mail', async () => {
    const { email } = await createUser(server);
    const wrongPassword = await server.request('POST', '/api/auth/login', { body: { email, password: 'nope-nope' } });
    const unknownEmail = await server.request('POST', '/api/auth/login', {
      body: { email: 'nobody-here@example.com', password: 'nope-nope' },
    });
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    expect(wrongPassword.body).toEqual(unknownEmail.body);
    expect(wrongPassword.body.error).toBe('Invalid email or password');
  });

  it.each(['email', 'password'])('answers 400 when %s is missing', async (field) => {
    const body: Record<string, string> = { email: 'a@example.com', password: 'secret1' };
    delete body[field];
    const response = await server.request('POST', '/api/auth/login', { body });
    expect(response.status).toBe(400);
  });

  it('limits failed attempts per e-mail to 10 in 15 minutes, then answers 429 with Retry-After', async () => {
    const { email, password } = await createUser(server);
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const response = await server.request('POST', '/api/auth/login', { body: { email, password: 'wrong-one' } });
      expect(response.status).toBe(401);
    }
    const limited = await server.request('POST', '/api/auth/login', { body: { email, password } });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body.error).toMatch(/Too many attempts/);

    server.clock.advance(15 * 60 * 1000 + 1000);
    const afterWindow = await server.request('POST', '/api/auth/login', { body: { email, password } });
    expect(afterWindow.status).toBe(200);
  });
});

describe('sign-in limits per address', () => {
  const FIFTEEN_MINUTES = 15 * 60 * 1000;

  it('locks an e-mail out only at the address that guessed: the owner still signs in from elsewhere', async () => {
    const { email, password } = await createUser(server);
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const response = await server.request('POST', '/api/auth/login', { body: { email, password: 'wrong-one' }, from: '127.0.0.2' });
      expect(response.status).toBe(401);
    }
    const attacker = await server.request('POST', '/api/auth/login', { body: { email, password }, from: '127.0.0.2' });
    expect(attacker.status).toBe(429);
    expect(Number(attacker.headers.get('retry-after'))).toBeGreaterThan(0);

    const owner = await server.request('POST', '/api/auth/login', { body: { email, password }, from: '127.0.0.1' });
    expect(owner.status).toBe(200);
    // The owner's success forgives nothing at the other address.
    expect((await server.request('POST', '/api/auth/login', { body: { email, password }, from: '127.0.0.2' })).status).toBe(429);
    server.clock.advance(FIFTEEN_MINUTES + 1000);
  });

  it('limits one address to 100 failures in 15 minutes across e-mails', async () => {
    const { email, password } = await createUser(server);
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const response = await server.request('POST', '/api/auth/login', {
        body: { email: `nobody-${attempt}@example.com`, password: 'wrong-one' },
        from: '127.0.0.3',
      });
      expect(response.status).toBe(401);
    }
    expect((await server.request('POST', '/api/auth/login', { body: { email, password }, from: '127.0.0.3' })).status).toBe(429);
    expect((await server.request('POST', '/api/auth/login', { body: { email, password }, from: '127.0.0.4' })).status).toBe(200);
    server.clock.advance(FIFTEEN_MINUTES + 1000);
    expect((await server.request('POST', '/api/auth/login', { body: { email, password }, from: '127.0.0.3' })).status).toBe(200);
  });
});

describe('parallel guessing', () => {
  it('counts sign-in attempts before verifying, so 30 parallel guesses get at most 10 tries', async () => {
    const { email } = await createUser(server);
    const responses = await Promise.all(
      Array.from({ length: 30 }, () => server.request('POST', '/api/auth/login', { body: { email, password: 'guess-guess' } })),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(20);
    server.clock.advance(15 * 60 * 1000 + 1000);
  });
});

describe('sessions', () => {
  it('answers 401 without a token, with a malformed header, a forged or a foreign-signed token', async () => {
    const { user } = await createUser(server);
    const foreign = await new SignJWT({ sid: 'x' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setIssuer('cloudvault')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-that-is-long-enough-to-sign'));
    const attempts = [
      {},
      { headers: { authorization: 'Token abc' } },
      { headers: { authorization: 'Bearer' } },
      { token: 'not.a.jwt' },
      { token: foreign },
    ];
    for (const attempt of attempts) {
      const response = await server.request('GET', '/api/auth/profile', attempt);
      expect(response.status).toBe(401);
      expect(typeof response.body.error).toBe('string');
    }
  });

  it('revokes the token on logout and leaves other sessions signed in', async () => {
    const { email, password, token } = await createUser(server);
    const other = await server.request('POST', '/api/auth/login', { body: { email, password } });

    const logout = await server.request('POST', '/api/auth/logout', { token });
    expect(logout.status).toBe(204);
    expect((await server.request('GET', '/api/auth/profile', { token })).status).toBe(401);
    expect((await server.request('POST', '/api/auth/logout', { token })).status).toBe(401);
    expect((await server.request('GET', '/api/auth/profile', { token: other.body.token })).status).toBe(200);
  });

  it('expires a token after 7 days', async () => {
    const { token } = await createUser(server);
    server.clock.advance(7 * DAY - 60_000);
    expect((await server.request('GET', '/api/auth/profile', { token })).status).toBe(200);
    server.clock.advance(2 * 60_000);
    expect((await server.request('GET', '/api/auth/profile', { token })).status).toBe(401);
  });
});

describe('logging', () => {
  it('never writes passwords or tokens to the log', async () => {
    const { email, password, token } = await createUser(server);
    await server.request('POST', '/api/auth/login', { body: { email, password } });
    await server.request('GET', '/api/auth/profile', { token });
    const logs = server.logs();
    expect(logs).toContain('/api/auth/profile');
    expect(logs).not.toContain(password);
    expect(logs).not.toContain(token);
  });
});
