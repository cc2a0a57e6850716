import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppPassword, createUser } from '@cloudvault/test-support/accounts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

// POST /api/auth/device-session (issue 39): the sync client trades an app password for a
// bearer session that lives only as long as the app password.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

let addressCounter = 0;
/** A client address no other test counts sign-in failures for. */
const freshAddress = () => `127.30.${Math.floor(++addressCounter / 250)}.${(addressCounter % 250) + 1}`;

const deviceSession = (body: unknown, from = freshAddress()) => server.request('POST', '/api/auth/device-session', { body, from });

describe('device sessions', () => {
  it('opens a session with an app password that works like a sign-in token', async () => {
    const user = await createUser(server);
    const password = await createAppPassword(server, user, { name: 'cloudvault on laptop' });
    const answer = await deviceSession({ email: user.email.toUpperCase(), password, device: 'laptop' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ token: expect.any(String), user: { id: user.user.id, email: user.email } });
    const profile = await server.request('GET', '/api/auth/profile', { token: answer.body.token });
    expect(profile.status).toBe(200);
    // The app password shows as used.
    const listed = await server.request('GET', '/api/user/app-passwords', { token: user.token });
    expect(listed.body.appPasswords[0].lastUsedAt).not.toBeNull();
  });

  it('ends at once when its app password is revoked (401 SESSION_EXPIRED), and leaves other sessions alone', async () => {
    const user = await createUser(server);
    const kept = await createAppPassword(server, user, { name: 'desktop' });
    const revoked = await createAppPassword(server, user, { name: 'laptop' });
    const laptop = (await deviceSession({ email: user.email, password: revoked, device: 'laptop' })).body.token as string;
    const desktop = (await deviceSession({ email: user.email, password: kept, device: 'desktop' })).body.token as string;
    const list = await server.request('GET', '/api/user/app-passwords', { token: user.token });
    const laptopId = (list.body.appPasswords as Array<{ id: string; name: string }>).find((entry) => entry.name === 'laptop')?.id;

    expect((await server.request('DELETE', `/api/user/app-passwords/${laptopId}`, { token: user.token })).status).toBe(204);
    const after = await server.request('GET', '/api/auth/profile', { token: laptop });
    expect(after).toMatchObject({ status: 401, body: { code: 'SESSION_EXPIRED' } });
    expect((await server.request('GET', '/api/auth/profile', { token: desktop })).status).toBe(200);
    expect((await server.request('GET', '/api/auth/profile', { token: user.token })).status).toBe(200);
    // The revoked app password opens nothing any more.
    expect((await deviceSession({ email: user.email, password: revoked, device: 'laptop' })).status).toBe(401);
  });

  it('refuses the account password, a wrong app password, another account and an unknown e-mail alike: 401 INVALID_CREDENTIALS', async () => {
    const user = await createUser(server);
    const other = await createUser(server);
    const othersPassword = await createAppPassword(server, other);
    const attempts = [
      { email: user.email, password: user.password, device: 'pc' },
      { email: user.email, password: 'abcdef-abcdef-abcdef-abcdef-abcdef', device: 'pc' },
      { email: user.email, password: othersPassword, device: 'pc' },
      { email: 'nobody@example.com', password: othersPassword, device: 'pc' },
      { email: 'not an address', password: othersPassword, device: 'pc' },
    ];
    for (const attempt of attempts) {
      const answer = await deviceSession(attempt);
      expect(answer.status, JSON.stringify(attempt)).toBe(401);
      expect(answer.body).toMatchObject({ code: 'INVALID_CREDENTIALS' });
      expect(answer.headers.get('www-authenticate')).toBeNull();
    }
  });

  it('counts wrong tries against the sign-in limits: 429 from one address once they are reached', async () => {
    const user = await createUser(server);
    const address = freshAddress();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt += 1) {
      statuses.push(
        (await deviceSession({ email: user.email, password: 'abcdef-abcdef-abcdef-abcdef-abcdef', device: 'pc' }, address)).status,
      );
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.at(-1)).toBe(429);
    // Counted like a sign-in: the form is refused from there too.
    const login = await server.request('POST', '/api/auth/login', { body: { email: user.email, password: user.password }, from: address });
    expect(login.status).toBe(429);
  });

  it('answers 400 to a body that is not the contract', async () => {
    const user = await createUser(server);
    const password = await createAppPassword(server, user);
    for (const body of [
      { email: user.email, password },
      { email: user.email, password, device: '' },
      { email: user.email, password, device: 'x'.repeat(101) },
      { email: user.email, password, device: 'pc', extra: 1 },
    ]) {
      expect((await deviceSession(body)).status, JSON.stringify(body)).toBe(400);
    }
    const raw = await server.request('POST', '/api/auth/device-session', {
      rawBody: '{"email":',
      headers: { 'content-type': 'application/json' },
      from: freshAddress(),
    });
    expect(raw.status).toBe(400);
  });
});
