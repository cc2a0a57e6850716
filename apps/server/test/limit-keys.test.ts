import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

// Limits keyed by what an anonymous client sends must not grow by a
// key per request. A user name is checked before it is counted, and the per-address window
// is asked first, so an address that is refused counts nothing per e-mail.

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const hugeName = (index: number) => `${String(index).padStart(4, '0')}${'x'.repeat(8 * 1024)}@example.com`;
/** The per-address sign-in limit (docs/api.md#rate-limits): 100 failures in 15 minutes. */
const PER_ADDRESS_LIMIT = 100;

function limitKeyTests(start: () => Promise<TestServer>, countKeys: (server: TestServer) => Promise<number>) {
  let server: TestServer;
  beforeAll(async () => {
    server = await start();
  });
  afterAll(async () => {
    await server?.close();
  });

  const propfind = (authorization: string, from: string) =>
    server.request('PROPFIND', '/dav/', { headers: { depth: '0', authorization }, from });

  it('keeps no window per request for 20 Basic sign-ins with 8 KB user names', async () => {
    const before = await countKeys(server);
    for (let index = 0; index < 20; index += 1) {
      const refused = await propfind(basic(hugeName(index), 'whatever'), '127.0.3.1');
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    }
    // The address's own window at most: the names themselves are never keys.
    expect((await countKeys(server)) - before).toBeLessThanOrEqual(1);
  });

  it('counts the user names that are not e-mails against the address, which then answers 429', async () => {
    for (let index = 0; index < PER_ADDRESS_LIMIT; index += 1)
      expect((await propfind(basic(hugeName(index), 'whatever'), '127.0.3.2')).status).toBe(401);
    const limited = await propfind(basic(hugeName(0), 'whatever'), '127.0.3.2');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('counts nothing per e-mail once the address is refused', async () => {
    const address = '127.0.3.3';
    for (let index = 0; index < PER_ADDRESS_LIMIT; index += 1)
      expect((await propfind(basic(`junk-${index}`, 'whatever'), address)).status).toBe(401);
    const before = await countKeys(server);
    for (let index = 0; index < 20; index += 1) {
      expect((await propfind(basic(`someone-${index}@example.com`, 'whatever'), address)).status).toBe(429);
      expect(
        (
          await server.request('POST', '/api/auth/login', {
            body: { email: `other-${index}@example.com`, password: 'whatever' },
            from: address,
          })
        ).status,
      ).toBe(429);
    }
    expect(await countKeys(server)).toBe(before);
  });

  it('counts nothing per e-mail for reset requests once the address is refused', async () => {
    const address = '127.0.3.4';
    // 20 reset requests an hour per address (docs/api.md#rate-limits).
    for (let index = 0; index < 20; index += 1)
      expect(
        (await server.request('POST', '/api/auth/forgot-password', { body: { email: `reset-${index}@example.com` }, from: address }))
          .status,
      ).toBe(202);
    const before = await countKeys(server);
    for (let index = 0; index < 20; index += 1) {
      expect(
        (await server.request('POST', '/api/auth/forgot-password', { body: { email: `more-${index}@example.com` }, from: address })).status,
      ).toBe(429);
    }
    expect(await countKeys(server)).toBe(before);
  });

  it('still lets the owner in with the right password from an address that is not refused', async () => {
    const user = await createUser(server);
    expect((await propfind(basic(user.email, user.password), '127.0.3.5')).status).toBe(207);
  });
}

describe('limit keys in the database (no REDIS_URL)', () => {
  limitKeyTests(
    () => startTestServer({ redis: false }),
    async (server) =>
      Number(
        (
          await server.container.database.db
            .selectFrom('limit_windows')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
  );
});

describe.skipIf(!process.env.TEST_REDIS_URL)('limit keys in Redis (set TEST_REDIS_URL to run)', () => {
  limitKeyTests(
    () => startTestServer({ redis: true }),
    async (server) => {
      const prefix = (server as TestServer & { limitKeyPrefix: string }).limitKeyPrefix;
      const redis = new Redis(process.env.TEST_REDIS_URL as string);
      try {
        let count = 0;
        for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 500 }) as AsyncIterable<string[]>) count += keys.length;
        return count;
      } finally {
        await redis.quit();
      }
    },
  );
});
