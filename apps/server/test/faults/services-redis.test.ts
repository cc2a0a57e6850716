import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFile, downloadFile, uploadFile } from '@cloudvault/test-support/drive';
import { type PrivateRedis, startPrivateRedis } from '../helpers/private-redis.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';
import { waitFor } from '../helpers/wait-for.ts';

/** A limited action answers within this while Redis is away: its command timeout is 2 s. */
const FAIL_FAST_MS = 5_000;

let redis: PrivateRedis;
let first: TestServer;
let second: TestServer;

beforeAll(async () => {
  redis = await startPrivateRedis();
  first = await startTestServer({ redis: false, env: { REDIS_URL: redis.url } });
  second = await first.startNode();
});
afterAll(async () => {
  await second?.close().catch(() => {});
  await first?.close().catch(() => {});
  await redis?.kill();
});

type User = Awaited<ReturnType<typeof createUser>>;
const nodes = () => [first, second];
const signIn = (node: TestServer, user: User) =>
  node.request('POST', '/api/auth/login', { body: { email: user.email, password: user.password } });

/** Sign-in is limited through Redis: while it is away, 503 with Retry-After, fast, on every node. */
async function expectSignInUnavailable(user: User): Promise<void> {
  for (const node of nodes()) {
    const started = performance.now();
    const answer = await signIn(node, user);
    const elapsed = performance.now() - started;
    expect(answer.status, `sign-in while Redis is away: ${answer.text}`).toBe(503);
    expect(answer.body).toMatchObject({ code: 'LIMITS_UNAVAILABLE', error: expect.any(String) });
    expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(elapsed, `answered after ${Math.round(elapsed)} ms`).toBeLessThan(FAIL_FAST_MS);
  }
}

/** What does not depend on Redis goes on: listing, upload, download. */
async function expectDriveServed(user: User, fileId: string, bytes: Buffer): Promise<void> {
  for (const [index, node] of nodes().entries()) {
    expect((await node.request('GET', '/api/files', { token: user.token })).status).toBe(200);
    expect(
      (await uploadFile(node, user.token, randomBytes(1024), { name: `meanwhile-${index}-${randomBytes(4).toString('hex')}.bin` })).status,
    ).toBe(201);
    expect((await downloadFile(node, user.token, fileId)).bytes.equals(bytes)).toBe(true);
  }
}

async function expectSignInRecovered(user: User): Promise<void> {
  for (const node of nodes()) {
    await waitFor('sign-in to answer 200 again', async () => (await signIn(node, user)).status === 200, 15_000, 100);
  }
}

it('answers the limited actions 503 while Redis is killed, serves the rest, and recovers when it is back', async () => {
  const user = await createUser(first);
  const bytes = randomBytes(128 * 1024);
  const kept = await createFile(first, user.token, bytes, { name: 'kept.bin' });
  await expectSignInRecovered(user);

  await redis.kill();
  try {
    await expectSignInUnavailable(user);
    await expectDriveServed(user, kept.id, bytes);
  } finally {
    await redis.start();
  }
  await expectSignInRecovered(user);
  await expectDriveServed(user, kept.id, bytes);
});

it('answers within its command timeout while Redis takes connections and never answers', async () => {
  const user = await createUser(first);
  const bytes = randomBytes(64 * 1024);
  const kept = await createFile(first, user.token, bytes, { name: 'kept-frozen.bin' });
  await expectSignInRecovered(user);

  // SIGSTOP: the process keeps its sockets and answers nothing, as a Redis stuck on a slow disk.
  redis.pause();
  try {
    await expectSignInUnavailable(user);
    await expectDriveServed(user, kept.id, bytes);
  } finally {
    redis.resume();
  }
  await expectSignInRecovered(user);
});
