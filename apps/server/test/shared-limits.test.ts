import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, newUserInput } from '@cloudvault/test-support/accounts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

// docs/decisions/0019: two nodes behind a balancer count every limit together, so the
// numbers of docs/api.md#rate-limits hold for the deployment, not per node.
function sharedLimitTests(start: () => Promise<TestServer>, store: 'database' | 'redis') {
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    first = await start();
    second = await first.startNode();
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('counts 10 failed sign-ins across both nodes, then both answer 429 with Retry-After', async () => {
    const { email, password } = await createUser(first);
    // The verification mail is queued before the nodes write in turn.
    await first.container.mail.drain();
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const node = attempt % 2 === 0 ? first : second;
      const response = await node.request('POST', '/api/auth/login', { body: { email, password: 'wrong-one' } });
      expect(response.status).toBe(401);
    }
    for (const node of [first, second]) {
      const limited = await node.request('POST', '/api/auth/login', { body: { email, password } });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
      expect(limited.body).toEqual({ error: 'Too many attempts. Please try again in 15 minutes.', code: 'RATE_LIMITED' });
    }
    // Another address is not held back by them.
    expect((await second.request('POST', '/api/auth/login', { body: { email, password }, from: '127.0.0.9' })).status).toBe(200);
  });

  it('counts 50 registrations per address across both nodes, then both answer 429 with Retry-After', async () => {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const node = attempt % 2 === 0 ? first : second;
      // Invalid on purpose: attempts count, not only successes, and they stay cheap.
      const response = await node.request('POST', '/api/auth/register', { body: newUserInput({ email: 'bad' }), from: '127.0.0.5' });
      expect(response.status).toBe(400);
    }
    for (const node of [first, second]) {
      const limited = await node.request('POST', '/api/auth/register', { body: newUserInput(), from: '127.0.0.5' });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(59 * 60);
      expect(limited.body).toEqual({ error: 'Too many attempts. Please try again in 60 minutes.', code: 'RATE_LIMITED' });
    }
    expect((await second.request('POST', '/api/auth/register', { body: newUserInput(), from: '127.0.0.6' })).status).toBe(201);
  });

  it('lets exactly 10 of 30 parallel guesses spread over both nodes be tried', async () => {
    const { email } = await createUser(first, {});
    await first.container.mail.drain();
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, attempt) =>
        (attempt % 2 === 0 ? first : second).request('POST', '/api/auth/login', {
          body: { email, password: 'guess-guess' },
          from: '127.0.0.7',
        }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
  });

  it('opens the window again for both nodes once it ends', async () => {
    const { email, password } = await createUser(first);
    await first.container.mail.drain();
    for (let attempt = 0; attempt < 10; attempt += 1) {
      await (attempt % 2 === 0 ? first : second).request('POST', '/api/auth/login', {
        body: { email, password: 'wrong-one' },
        from: '127.0.0.8',
      });
    }
    expect((await first.request('POST', '/api/auth/login', { body: { email, password }, from: '127.0.0.8' })).status).toBe(429);
    // One clock for the deployment: the nodes' clocks agree, as NTP keeps real ones.
    first.clock.advance(15 * 60 * 1000 + 1000);
    expect((await second.request('POST', '/api/auth/login', { body: { email, password }, from: '127.0.0.8' })).status).toBe(200);
  });

  it(`keeps the windows in ${store === 'redis' ? 'Redis, none in the database' : 'the database'}`, async () => {
    const rows = await first.container.database.db.selectFrom('limit_windows').select('key').execute();
    if (store === 'redis') expect(rows).toEqual([]);
    else
      expect(rows.map((row) => row.key)).toEqual(
        expect.arrayContaining(['sign-in-failures-by-ip:ip:127.0.0.8', 'rate:POST:/api/auth/register:127.0.0.5']),
      );
  });
}

describe('limits shared through the database (no REDIS_URL)', () => {
  sharedLimitTests(() => startTestServer({ redis: false }), 'database');
});

describe.skipIf(!process.env.TEST_REDIS_URL)('limits shared through Redis (REDIS_URL; set TEST_REDIS_URL to run)', () => {
  sharedLimitTests(() => startTestServer({ redis: true }), 'redis');
});

describe('a limit store that cannot be reached', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Nothing listens on port 1: Redis is down for this whole server's life.
    server = await startTestServer({ env: { REDIS_URL: 'redis://127.0.0.1:1' } });
  });
  afterAll(() => server?.close());

  it('answers 503 with Retry-After for limited actions (fails closed) and serves the rest', async () => {
    const signIn = await server.request('POST', '/api/auth/login', { body: { email: 'someone@example.com', password: 'wrong-one' } });
    expect(signIn.status).toBe(503);
    expect(signIn.headers.get('retry-after')).toBe('5');
    expect(signIn.body).toEqual({
      error: 'This is unavailable for a moment. Please try again in a few seconds.',
      code: 'LIMITS_UNAVAILABLE',
    });
    const register = await server.request('POST', '/api/auth/register', { body: newUserInput() });
    expect(register.status).toBe(503);
    expect(register.body.code).toBe('LIMITS_UNAVAILABLE');
    expect((await server.request('GET', '/api/health')).status).toBe(200);
  });
});
