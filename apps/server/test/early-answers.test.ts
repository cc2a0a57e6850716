import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { type Balancer, HAPROXY_INSTALLED, startHaproxy } from './helpers/haproxy.ts';
import { rawUpload, type RawUploadResult } from './helpers/raw-upload.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { assertStorageConsistent } from './helpers/storage-totals.ts';

const MiB = 1024 * 1024;
/** Large enough that the body is still on its way, in the socket buffers, when the answer leaves. */
const LARGE = 24 * MiB;
const ROUNDS = 100;

let server: TestServer;
let plansDir: string;
let port: number;
/** Free here: 1 MiB per file, so a large body is 413. */
let small: { token: string; userId: string };
/** Pro here: no per-file limit but 1 MiB of storage, so a large body is 507. */
let full: { token: string; userId: string };
/** Business here: room for everything, so only the body itself can be refused. */
let roomy: { token: string; userId: string };

beforeAll(async () => {
  plansDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-early-answers-'));
  const plansFile = path.join(plansDir, 'plans.json');
  const plan = {
    price: 0,
    description: 'test',
    features: [],
    popular: false,
    prioritySupport: false,
    maxConcurrentUploads: 3,
    capabilities: { passwordProtectedLinks: false, maxShareExpiryHours: 24, versioning: false, analytics: false },
  };
  await writeFile(
    plansFile,
    JSON.stringify([
      { ...plan, id: 'FREE', name: 'Free', storageLimit: 100 * MiB, maxFileSize: MiB },
      { ...plan, id: 'PRO', name: 'Pro', storageLimit: MiB, maxFileSize: null },
      { ...plan, id: 'PREMIUM', name: 'Business', storageLimit: 100 * MiB, maxFileSize: null },
    ]),
  );
  server = await startTestServer({ env: { PLANS_FILE: plansFile } });
  port = Number(new URL(server.url).port);
  const free = await createUser(server);
  small = { token: free.token, userId: free.user.id };
  const pro = await createUser(server);
  await server.container.database.db.updateTable('users').set({ plan_id: 'PRO' }).where('id', '=', pro.user.id).execute();
  full = { token: pro.token, userId: pro.user.id };
  const business = await createUser(server);
  await server.container.database.db.updateTable('users').set({ plan_id: 'PREMIUM' }).where('id', '=', business.user.id).execute();
  roomy = { token: business.token, userId: business.user.id };
});
afterAll(async () => {
  await server.close();
  await rm(plansDir, { recursive: true, force: true });
});

/** The refusal each user's large upload must read: status, code and the product's words. */
const expected = (user: typeof small) =>
  user === small
    ? { status: 413, code: 'FILE_TOO_LARGE', error: /per-file limit of the Free plan/ }
    : { status: 507, code: 'QUOTA_EXCEEDED', error: /^Not enough storage/ };

function describeOutcome(result: RawUploadResult): string {
  return result.final ? `${result.final.status} ${result.final.body}` : `no answer (${result.error?.code ?? 'closed'})`;
}

/** Sends ROUNDS large uploads in a row, alternating the two refusals, and counts the answers read. */
async function refusalsRead(targetPort: number): Promise<{ read: number; failures: string[] }> {
  const failures: string[] = [];
  let read = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const user = round % 2 === 0 ? small : full;
    const want = expected(user);
    const result = await rawUpload({ port: targetPort, token: user.token, fileBytes: LARGE });
    const final = result.final;
    if (final?.status === want.status && final.json?.code === want.code && want.error.test(final.json.error ?? '')) read += 1;
    else failures.push(`round ${round}: wanted ${want.status}, got ${describeOutcome(result)}`);
  }
  return { read, failures };
}

async function expectNothingKept(): Promise<void> {
  expect(await assertStorageConsistent(server, small.userId)).toEqual({ used: 0, sum: 0 });
  expect(await assertStorageConsistent(server, full.userId)).toEqual({ used: 0, sum: 0 });
  expect(await server.blobCount()).toBe(0);
}

if (!HAPROXY_INSTALLED && process.env.REQUIRE_HAPROXY !== '1') {
  console.warn('SKIPPED: the proxy tests need haproxy (apt-get install -y haproxy); REQUIRE_HAPROXY=1 makes this a failure.');
}

describe('a refusal reaches a client that sends the whole body anyway', () => {
  it(`reads the 413 and 507 with their JSON error ${ROUNDS} times in a row, directly`, { timeout: 300_000 }, async () => {
    const { read, failures } = await refusalsRead(port);
    expect({ read, firstFailures: failures.slice(0, 3) }).toEqual({ read: ROUNDS, firstFailures: [] });
    await expectNothingKept();
  });

  describe.skipIf(!HAPROXY_INSTALLED && process.env.REQUIRE_HAPROXY !== '1')('through haproxy', () => {
    let proxy: Balancer | undefined;
    beforeAll(async () => {
      if (!HAPROXY_INSTALLED) throw new Error('REQUIRE_HAPROXY=1 but haproxy is not installed: apt-get install -y haproxy');
      proxy = await startHaproxy({ backends: [{ name: 'node1', port }] });
    });
    afterAll(() => proxy?.stop());

    it(`reads the 413 and 507 with their JSON error ${ROUNDS} times in a row`, { timeout: 300_000 }, async () => {
      const { read, failures } = await refusalsRead(proxy!.port);
      expect({ read, firstFailures: failures.slice(0, 3) }).toEqual({ read: ROUNDS, firstFailures: [] });
      await expectNothingKept();
    });
  });
});

describe('a refusal found while streaming', () => {
  it('reaches a client that sends the rest of a large body anyway, and keeps nothing', async () => {
    for (let round = 0; round < 10; round += 1) {
      const result = await rawUpload({ port, token: roomy.token, fileBytes: LARGE, leadingFile: true });
      expect(result.final?.status, describeOutcome(result)).toBe(400);
      expect(result.final?.json).toEqual({ error: 'Send one file per upload', code: 'MORE_THAN_ONE_FILE' });
    }
    expect(await assertStorageConsistent(server, roomy.userId)).toEqual({ used: 0, sum: 0 });
    expect(await server.blobCount()).toBe(0);
  });
});

describe('Expect: 100-continue', () => {
  for (const which of ['too large', 'over quota'] as const) {
    it(`answers an upload ${which} before the body, which the client then never sends`, async () => {
      const user = which === 'too large' ? small : full;
      const want = expected(user);
      const result = await rawUpload({ port, token: user.token, fileBytes: LARGE, expectContinue: true });
      expect(result.responses.map((response) => response.status)).toEqual([want.status]);
      expect(result.final?.json).toEqual({ error: expect.stringMatching(want.error), code: want.code });
      expect(result.bodyBytesSent).toBe(0);
      await expectNothingKept();
    });
  }

  it('answers 401 before the body to a caller who is not signed in', async () => {
    const result = await rawUpload({ port, token: 'not-a-session', fileBytes: LARGE, expectContinue: true });
    expect(result.responses.map((response) => response.status)).toEqual([401]);
    expect(result.final?.json?.code).toBe('SESSION_EXPIRED');
    expect(result.bodyBytesSent).toBe(0);
  });

  it('sends 100 Continue once the upload is accepted, then stores the file', async () => {
    const result = await rawUpload({ port, token: small.token, fileBytes: 300_000, expectContinue: true });
    expect(result.responses.map((response) => response.status)).toEqual([100, 201]);
    expect(result.bodyBytesSent).toBe(300_000);
    expect(result.final?.json?.file).toMatchObject({ originalName: 'big.bin', size: 300_000 });
    const listed = await server.request('GET', '/api/files', { token: small.token });
    expect(listed.body.files).toEqual([result.final?.json?.file]);
    const removed = await server.request('DELETE', `/api/files/${(result.final?.json?.file as { id: string }).id}`, { token: small.token });
    expect(removed.status).toBe(200);
    expect((await server.request('DELETE', '/api/trash', { token: small.token })).status).toBe(204);
    await expectNothingKept();
  });
});
