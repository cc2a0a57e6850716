import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

// Only 127.0.0.2 is a trusted proxy: its X-Forwarded-For names the client, anyone else's
// is ignored. Which address the server counts is seen through the sign-in limit.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { TRUST_PROXY: '127.0.0.2' } });
});
afterAll(() => server.close());

const wrongSignIns = async (email: string, from: string, forwardedFor: (attempt: number) => string) => {
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const response = await server.request('POST', '/api/auth/login', {
      body: { email, password: 'wrong-one' },
      from,
      headers: { 'x-forwarded-for': forwardedFor(attempt) },
    });
    expect(response.status).toBe(401);
  }
};

describe('TRUST_PROXY as a list of proxy addresses', () => {
  it('ignores X-Forwarded-For from a peer that is not listed: a forged header does not change the counted address', async () => {
    const { email, password } = await createUser(server);
    await wrongSignIns(email, '127.0.0.1', (attempt) => `10.0.0.${attempt + 1}`);
    const forged = await server.request('POST', '/api/auth/login', {
      body: { email, password },
      from: '127.0.0.1',
      headers: { 'x-forwarded-for': '10.0.0.99' },
    });
    expect(forged.status).toBe(429);
  });

  it('counts the client named by a listed proxy', async () => {
    const { email, password } = await createUser(server);
    await wrongSignIns(email, '127.0.0.2', () => '10.0.1.1');
    const limited = await server.request('POST', '/api/auth/login', {
      body: { email, password },
      from: '127.0.0.2',
      headers: { 'x-forwarded-for': '10.0.1.1' },
    });
    expect(limited.status).toBe(429);
    const otherClient = await server.request('POST', '/api/auth/login', {
      body: { email, password },
      from: '127.0.0.2',
      headers: { 'x-forwarded-for': '10.0.1.2' },
    });
    expect(otherClient.status).toBe(200);
  });
});

describe('TRUST_PROXY as a number of hops', () => {
  let behindOneProxy: TestServer;
  beforeAll(async () => {
    behindOneProxy = await startTestServer({ env: { TRUST_PROXY: '1' } });
  });
  afterAll(() => behindOneProxy.close());

  it('counts the address the nearest hop forwarded, and only that one', async () => {
    const { email, password } = await createUser(behindOneProxy);
    for (let attempt = 0; attempt < 10; attempt += 1) {
      // The client wrote the first address itself; the proxy appended the one it saw.
      const response = await behindOneProxy.request('POST', '/api/auth/login', {
        body: { email, password: 'wrong-one' },
        headers: { 'x-forwarded-for': `10.9.9.${attempt}, 10.0.2.1` },
      });
      expect(response.status).toBe(401);
    }
    const limited = await behindOneProxy.request('POST', '/api/auth/login', {
      body: { email, password },
      headers: { 'x-forwarded-for': '10.9.9.99, 10.0.2.1' },
    });
    expect(limited.status).toBe(429);
    const otherClient = await behindOneProxy.request('POST', '/api/auth/login', {
      body: { email, password },
      headers: { 'x-forwarded-for': '10.0.2.2' },
    });
    expect(otherClient.status).toBe(200);
  });
});
