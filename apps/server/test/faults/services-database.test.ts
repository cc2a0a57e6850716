import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFile, createFolder, downloadFile, uploadFile } from '@cloudvault/test-support/drive';
import { request } from '@cloudvault/test-support/running-server';
import { HALVES_SVG } from '../helpers/image-fixtures.ts';
import { type PrivatePostgres, startPrivatePostgres } from '../helpers/private-postgres.ts';
import { startServerProcess } from '../helpers/server-process.ts';
import { createPostgresDatabase } from '../helpers/test-database.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';
import { startSilentListener } from '../helpers/silent-listener.ts';
import { waitFor } from '../helpers/wait-for.ts';

/** An answer while the database is down must come within this, not after a client's own timeout. */
const FAIL_FAST_MS = 5_000;

let postgres: PrivatePostgres;
let database: { url: string; drop(): Promise<void> };
let first: TestServer;
let second: TestServer;

beforeAll(async () => {
  postgres = await startPrivatePostgres();
  database = await createPostgresDatabase(postgres.url);
  // Limits in the database too: with PostgreSQL down the limited actions are affected as well.
  first = await startTestServer({ redis: false, env: { DATABASE_URL: database.url } });
  second = await first.startNode();
});
afterAll(async () => {
  await second?.close().catch(() => {});
  await first?.close().catch(() => {});
  await postgres?.destroy();
});

type Answer = { status: number; headers: Headers; body?: unknown; bytes?: Buffer };
type Attempt = { what: string; send: () => Promise<Answer> };

/** The answer's JSON, whether the call parsed it (the API helpers) or gave bytes (downloads). */
function jsonOf(answer: Answer): unknown {
  return answer.bytes ? JSON.parse(answer.bytes.toString()) : answer.body;
}

/** What a signed-in person does: sign in, list, upload, download; on either node. */
function traffic(user: { email: string; password: string; token: string }, fileId: string): Attempt[] {
  return [first, second].flatMap((node, index) => [
    {
      what: `node ${index + 1} sign-in`,
      send: () => node.request('POST', '/api/auth/login', { body: { email: user.email, password: user.password } }),
    },
    { what: `node ${index + 1} listing`, send: () => node.request('GET', '/api/files', { token: user.token }) },
    {
      what: `node ${index + 1} upload`,
      send: () => uploadFile(node, user.token, randomBytes(64 * 1024), { name: `during-${index}-${randomBytes(4).toString('hex')}.bin` }),
    },
    { what: `node ${index + 1} download`, send: () => downloadFile(node, user.token, fileId) },
  ]);
}

async function expectUnavailable(attempt: Attempt): Promise<void> {
  const started = performance.now();
  const answer = await attempt.send();
  const elapsed = performance.now() - started;
  expect(answer.status, `${attempt.what} while the database is down: ${answer.bytes?.toString() ?? JSON.stringify(answer.body)}`).toBe(503);
  expect(answer.headers.get('retry-after'), attempt.what).toMatch(/^\d+$/);
  expect(answer.headers.get('content-type'), attempt.what).toContain('application/json');
  // A rate-limited action (sign-in) finds its limit store, the database here, away first (docs/decisions/0019).
  expect(jsonOf(answer), attempt.what).toMatchObject({
    code: expect.stringMatching(/^(SERVICE|LIMITS)_UNAVAILABLE$/),
    error: expect.any(String),
  });
  expect(elapsed, `${attempt.what} answered after ${Math.round(elapsed)} ms`).toBeLessThan(FAIL_FAST_MS);
}

async function expectRecovered(user: { email: string; password: string; token: string }, fileId: string, bytes: Buffer): Promise<void> {
  for (const attempt of traffic(user, fileId)) {
    await waitFor(
      `${attempt.what} to answer 2xx again`,
      async () => {
        const answer = await attempt.send();
        return answer.status >= 200 && answer.status < 300;
      },
      20_000,
      200,
    );
  }
  for (const node of [first, second]) {
    const download = await downloadFile(node, user.token, fileId);
    expect(download.bytes.equals(bytes), 'the upload acknowledged before the fault, byte for byte').toBe(true);
  }
}

for (const mode of ['fast', 'immediate'] as const) {
  it(`answers 503 with Retry-After while PostgreSQL is down (stop -m ${mode}), then both nodes recover on their own`, async () => {
    const user = await createUser(first);
    const bytes = randomBytes(256 * 1024);
    const kept = await createFile(first, user.token, bytes, { name: `kept-${mode}.bin` });
    // Warm both pools, so the stop finds connections to break, not only new ones to refuse.
    await expectRecovered(user, kept.id, bytes);

    // Traffic is in flight when the database goes away: none of it may be a 500 or hang.
    const inFlight = Array.from({ length: 3 }, () => traffic(user, kept.id))
      .flat()
      .map(async (attempt) => ({ what: attempt.what, answer: await attempt.send() }));
    await postgres.stop(mode);
    try {
      for (const { what, answer } of await Promise.all(inFlight)) {
        expect(
          [200, 201, 503],
          `${what} across the stop: ${answer.bytes?.toString().slice(0, 200) ?? JSON.stringify(answer.body)}`,
        ).toContain(answer.status);
      }
      for (const attempt of traffic(user, kept.id)) await expectUnavailable(attempt);
    } finally {
      await postgres.start();
    }
    await expectRecovered(user, kept.id, bytes);
  });
}

it('answers 503 within the connect timeout while PostgreSQL takes connections and never answers', async () => {
  const user = await createUser(first);
  const bytes = randomBytes(64 * 1024);
  const kept = await createFile(first, user.token, bytes, { name: 'kept-hung.bin' });
  await postgres.stop('fast');
  // Every pooled connection went with the stop, so each request needs a new one, which hangs.
  const hung = await startSilentListener(postgres.port);
  try {
    // At once, as a busy node meets it: each still within the bound.
    await Promise.all(traffic(user, kept.id).map(expectUnavailable));
    expect(hung.connections(), 'the nodes did try to connect').toBeGreaterThan(0);
  } finally {
    await hung.close();
    await postgres.start();
  }
  await expectRecovered(user, kept.id, bytes);
});

it('keeps a server process alive through a PostgreSQL crash with queries in flight; once PostgreSQL is back it serves and runs pg-boss jobs again', async () => {
  const own = await createPostgresDatabase(postgres.url);
  const node = await startServerProcess({ DATABASE_URL: own.url });
  try {
    expect(node.output()).toContain('Background jobs run on pg-boss');
    const user = await createUser(node);
    const bytes = randomBytes(64 * 1024);
    const kept = await createFile(node, user.token, bytes, { name: 'kept-process.bin' });
    // Queries running when the connections drop: the node must answer them, not die of them.
    const inFlight = Array.from({ length: 30 }, () =>
      request(node, 'GET', '/api/files', { token: user.token }).then(
        (answer) => answer.status,
        () => 'cut',
      ),
    );
    await postgres.stop('immediate');
    try {
      expect(new Set(await Promise.all(inFlight)), 'answers across the crash').toSatisfy((statuses: Set<number | string>) =>
        [...statuses].every((status) => status === 200 || status === 503),
      );
      const answer = await request(node, 'GET', '/api/files', { token: user.token });
      expect(answer.status, answer.text).toBe(503);
      expect(answer.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    } finally {
      await postgres.start();
    }
    await waitFor('the process to serve again', async () => (await request(node, 'GET', '/api/health/ready')).status === 200, 20_000, 200);
    expect(node.child.exitCode, `the process is still running:\n${node.output().slice(-2000)}`).toBeNull();
    expect((await request(node, 'POST', '/api/auth/login', { body: { email: user.email, password: user.password } })).status).toBe(200);
    expect((await downloadFile(node, user.token, kept.id)).bytes.equals(bytes)).toBe(true);
    // pg-boss took up its work again: an upload's thumbnail job is queued and run after the crash.
    const image = await createFile(node, user.token, HALVES_SVG, { name: 'after.svg', type: 'image/svg+xml' });
    await waitFor(
      'a thumbnail made by a job queued after the crash',
      async () => (await request(node, 'GET', `/api/files/${image.id}/thumbnail?size=small`, { token: user.token })).status === 200,
      30_000,
      250,
    );
  } finally {
    await node.stop();
    await own.drop();
  }
});

it('answers reads and writes of every kind 503 with Retry-After, never a 500, while PostgreSQL is down', async () => {
  const user = await createUser(first);
  const folder = await createFolder(first, user.token, 'zipped');
  const file = await createFile(first, user.token, randomBytes(1024), { name: 'inside.bin', folderId: folder.id });
  const share = await request<{ shareUrl: string }>(first, 'POST', `/api/files/${file.id}/share`, {
    token: user.token,
    body: { shareType: 'public' },
  });
  const shareToken = share.body.shareUrl.split('/').pop() as string;
  const paths = [
    '/api/auth/profile',
    '/api/user/dashboard',
    '/api/user/overview',
    '/api/user/settings',
    `/api/user/folders?parentId=${folder.id}`,
    `/api/user/folders/${folder.id}/path`,
    `/api/user/folders/${folder.id}/download`,
    `/api/files?folderId=${folder.id}`,
    `/api/files/${file.id}/versions`,
    `/api/files/${file.id}/thumbnail?size=small`,
    '/api/trash',
    '/api/shares',
    '/api/shared-with-me',
    '/api/notifications',
    '/api/subscriptions/current',
    '/api/user/app-passwords',
    `/api/public/shares/${shareToken}`,
  ];
  const writes: [string, string, unknown][] = [
    ['POST', '/api/user/folders', { name: 'new' }],
    ['PATCH', `/api/user/folders/${folder.id}`, { name: 'renamed' }],
    ['PATCH', `/api/files/${file.id}`, { name: 'renamed.bin' }],
    ['DELETE', `/api/files/${file.id}`, {}],
    ['POST', `/api/files/${file.id}/share`, { shareType: 'public' }],
    ['POST', '/api/trash/restore', { type: 'file', id: file.id }],
  ];
  const basic = `Basic ${Buffer.from(`${user.email}:${user.password}`).toString('base64')}`;
  await postgres.stop('fast');
  try {
    const answers = await Promise.all([
      ...paths.map(async (path) => ({
        what: `GET ${path}`,
        response: await fetch(`${first.url}${path}`, { headers: { authorization: `Bearer ${user.token}` } }),
      })),
      (async () => ({
        what: 'PROPFIND /dav/',
        response: await fetch(`${first.url}/dav/`, { method: 'PROPFIND', headers: { authorization: basic, depth: '1' } }),
      }))(),
      ...writes.map(async ([method, path, body]) => ({
        what: `${method} ${path}`,
        response: await fetch(`${first.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      })),
      (async () => ({
        what: 'PUT /dav/new.txt',
        response: await fetch(`${first.url}/dav/new.txt`, { method: 'PUT', headers: { authorization: basic }, body: 'hello' }),
      }))(),
    ]);
    for (const { what, response } of answers) {
      const text = await response.text();
      expect(response.status, `${what}: ${text.slice(0, 300)}`).toBe(503);
      expect(response.headers.get('retry-after'), what).toMatch(/^\d+$/);
      expect(JSON.parse(text), what).toMatchObject({ code: expect.stringMatching(/_UNAVAILABLE$/) });
    }
  } finally {
    await postgres.start();
  }
});
