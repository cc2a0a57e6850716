import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { uploadFile } from '@cloudvault/test-support/drive';
import { newId } from '../src/lib/ids.ts';
import { createTrashRepository } from '../src/modules/trash/trash.repository.ts';
import { assertStorageConsistent, storageTotals } from './helpers/storage-totals.ts';
import { freePort } from './helpers/free-port.ts';
import { spawnServer } from './helpers/server-process.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

// Crash-safe storage accounting (docs/decisions/0021-crash-safe-storage.md): reservations
// are leased rows any node gives back, blob deletions are queued with the rows' deletion,
// and a sweeper removes what no row references.

const DAY = 24 * 60 * 60 * 1000;
const LEASE_SECONDS = 2;

let server: TestServer;
beforeAll(async () => {
  // Real time: the other nodes run as processes of their own, on the system clock.
  server = await startTestServer({ env: { UPLOAD_LEASE_SECONDS: String(LEASE_SECONDS) }, realTimeClock: true });
});
afterAll(() => server.close());

/** Every key the store holds, listed through the server's own store a page at a time. */
async function storedKeys(node: TestServer): Promise<string[]> {
  const keys: string[] = [];
  for await (const page of node.container.blobs.list()) keys.push(...page.map((blob) => blob.key));
  return keys.sort();
}

/** Every key a file or version row names. */
async function referencedKeys(node: TestServer): Promise<string[]> {
  const db = node.container.database.db;
  const rows = await db.selectFrom('files').select('blob_key').union(db.selectFrom('file_versions').select('blob_key')).execute();
  return rows.map((row) => row.blob_key).sort();
}

async function reservationCount(node: TestServer): Promise<number> {
  const row = await node.container.database.db
    .selectFrom('upload_reservations')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The store holds exactly the blobs rows name: no partial object, no unfinished upload, no orphan. */
async function expectStoreExact(node: TestServer): Promise<void> {
  expect(await storedKeys(node)).toEqual(await referencedKeys(node));
  expect(await node.unfinishedUploads()).toEqual([]);
}

/**
 * An upload that sends `sent` bytes of a declared `declared`-byte file and then waits: the
 * server holds its reservation until the request ends or its node dies.
 */
function startHeldUpload(url: string, token: string, declared: number, sent: number): http.ClientRequest {
  const boundary = 'cloudvault-crash-boundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const request = http.request(`${url}/api/files/upload`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': head.length + declared + `\r\n--${boundary}--\r\n`.length,
    },
  });
  request.on('error', () => {});
  request.write(head);
  request.write(randomBytes(sent));
  return request;
}

/** Another node as its own process (main.ts), on the test server's database, DATA_DIR and store. */
async function startNodeProcess(node: TestServer): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const { child } = spawnServer({ DATABASE_URL: '', ...node.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' });
  const url = `http://127.0.0.1:${port}`;
  await expect
    .poll(async () => (await fetch(`${url}/api/health`).catch(() => undefined))?.status, { timeout: 60_000, interval: 200 })
    .toBe(200);
  return { url, child };
}

describe('a node killed mid-upload', () => {
  it('has its reservation given back and its partial upload removed once its lease runs out', { timeout: 180_000 }, async () => {
    const { token, user } = await createUser(server);
    const kept = await uploadFile(server, token, randomBytes(5000), { name: 'kept.bin' });
    expect(kept.status).toBe(201);

    const other = await startNodeProcess(server);
    // Past one S3 part, so a multipart upload exists in the bucket when the node dies.
    const declared = 20_000_000;
    const upload = startHeldUpload(other.url, token, declared, 9 * 1024 * 1024);
    await expect.poll(() => reservationCount(server), { timeout: 30_000 }).toBe(1);
    await expect.poll(async () => (await server.unfinishedUploads()).length, { timeout: 30_000 }).toBe(1);

    const exited = new Promise((resolve) => other.child.once('exit', resolve));
    other.child.kill('SIGKILL');
    await exited;
    const diedAt = Date.now();
    upload.destroy();
    expect((await storageTotals(server, user.id)).used).toBeGreaterThan(declared);

    // The reconciler as the surviving node runs it: once the dead node's lease
    // (UPLOAD_LEASE_SECONDS=2) runs out, its bytes go back and its partial upload goes.
    await expect
      .poll(
        async () => {
          await server.container.storageUpkeep.reconcile();
          return reservationCount(server);
        },
        { timeout: 30_000, interval: 100 },
      )
      .toBe(0);
    const exactAfterMs = Date.now() - diedAt;
    console.log(`death to exact storage: ${exactAfterMs} ms (lease ${LEASE_SECONDS} s)`);

    expect(await assertStorageConsistent(server, user.id)).toEqual({ used: 5000, sum: 5000 });
    await expectStoreExact(server);
  });
});

describe('uploads at once across nodes', () => {
  it(
    'allows the Free plan three uploads at once over two nodes on one database: the fourth is 429 on either',
    { timeout: 180_000 },
    async () => {
      const other = await startNodeProcess(server);
      try {
        const { token, user } = await createUser(server);
        const declared = 10_000_000;
        const holders = [
          startHeldUpload(server.url, token, declared, 100_000),
          startHeldUpload(other.url, token, declared, 100_000),
          startHeldUpload(other.url, token, declared, 100_000),
        ];
        await expect.poll(() => reservationCount(server), { timeout: 30_000 }).toBe(3);

        for (const url of [server.url, other.url]) {
          const fourth = await uploadFile({ url }, token, 'x', { name: 'fourth.txt' });
          expect(fourth.status).toBe(429);
          expect(fourth.body.error).toBe('The Free plan uploads 3 files at a time. Wait for one to finish.');
        }

        for (const holder of holders) holder.destroy();
        await expect.poll(() => reservationCount(server), { timeout: 30_000 }).toBe(0);
        expect(await assertStorageConsistent(server, user.id)).toEqual({ used: 0, sum: 0 });
        expect((await uploadFile({ url: other.url }, token, 'ok', { name: 'after.txt' })).status).toBe(201);
        await expectStoreExact(server);
      } finally {
        const exited = new Promise((resolve) => other.child.once('exit', resolve));
        other.child.kill('SIGTERM');
        await exited;
      }
    },
  );

  it('gives back an expired reservation once when two nodes reconcile at the same moment', async () => {
    // Two nodes in this process on PostgreSQL; on SQLite two runs at once on one node: two
    // SQLite connections in one process wait for each other's lock on the thread both need.
    const second = process.env.TEST_DB === 'postgres' ? await server.startNode() : undefined;
    try {
      const { token, user } = await createUser(server);
      await uploadFile(server, token, randomBytes(1234), { name: 'one.bin' });
      const db = server.container.database.db;
      // What a dead node leaves: bytes counted and a reservation whose lease has run out.
      const lapsed = new Date(server.clock.now().getTime() - 1000).toISOString();
      await db
        .updateTable('users')
        .set({ storage_used: 1234 + 777 })
        .where('id', '=', user.id)
        .execute();
      await db
        .insertInto('upload_reservations')
        .values({ id: newId(), user_id: user.id, bytes: 777, blob_key: newId(), lease_until: lapsed, created_at: lapsed })
        .execute();

      const results = await Promise.all([
        server.container.storageUpkeep.reconcile(),
        (second ?? server).container.storageUpkeep.reconcile(),
      ]);

      expect(results.reduce((total, result) => total + result.expired, 0)).toBe(1);
      expect(await assertStorageConsistent(server, user.id)).toEqual({ used: 1234, sum: 1234 });
      expect(await reservationCount(server)).toBe(0);
    } finally {
      await second?.close();
    }
  });
});

describe('the reconciler', () => {
  it('sets storageUsed to the exact sum of the files of users with no upload in progress', async () => {
    const { token, user } = await createUser(server);
    await uploadFile(server, token, randomBytes(4321), { name: 'a.bin' });
    await server.container.database.db.updateTable('users').set({ storage_used: 99_999 }).where('id', '=', user.id).execute();

    expect((await server.container.storageUpkeep.reconcile()).corrected).toBeGreaterThanOrEqual(1);
    expect(await assertStorageConsistent(server, user.id)).toEqual({ used: 4321, sum: 4321 });
    expect((await server.container.storageUpkeep.reconcile()).corrected).toBe(0);
  });
});

describe('queued blob deletion', () => {
  it('deletes the bytes a process left when it died between deleting the rows and the bytes', async () => {
    const { token, user } = await createUser(server);
    const file = (await uploadFile(server, token, 'doomed bytes', { name: 'doomed.txt' })).body.file;
    const db = server.container.database.db;
    const key = (await db.selectFrom('files').select('blob_key').where('id', '=', file.id).executeTakeFirstOrThrow()).blob_key;
    expect((await server.request('DELETE', `/api/files/${file.id}`, { token })).status).toBe(200);

    // The purge's own transaction, then nothing: the process died before deleting the bytes.
    expect(await createTrashRepository(db, server.container.database.dialect).purgeItem(user.id, 'file', file.id)).toEqual([key]);
    expect(await db.selectFrom('files').select('id').where('id', '=', file.id).executeTakeFirst()).toBeUndefined();
    expect(await db.selectFrom('blob_deletions').select('blob_key').where('blob_key', '=', key).executeTakeFirst()).toEqual({
      blob_key: key,
    });
    expect(await server.container.blobs.exists(key)).toBe(true);

    expect(await server.container.storageUpkeep.deleteQueuedBlobs()).toBeGreaterThanOrEqual(1);
    expect(await server.container.blobs.exists(key)).toBe(false);
    expect(await db.selectFrom('blob_deletions').select('blob_key').execute()).toEqual([]);
    // Again, with the bytes already gone: nothing to do, nothing fails.
    await db.insertInto('blob_deletions').values({ blob_key: key }).execute();
    expect(await server.container.storageUpkeep.deleteQueuedBlobs()).toBe(1);
    expect(await assertStorageConsistent(server, user.id)).toEqual({ used: 0, sum: 0 });
  });
});

describe('the sweeper', () => {
  it('removes an unreferenced blob and an unfinished upload older than the grace period, and keeps young and referenced ones', async () => {
    const { token } = await createUser(server);
    const file = (await uploadFile(server, token, 'referenced', { name: 'kept.txt' })).body.file;
    const fileKey = (
      await server.container.database.db.selectFrom('files').select('blob_key').where('id', '=', file.id).executeTakeFirstOrThrow()
    ).blob_key;
    const oldKey = newId();
    const youngKey = newId();
    await server.container.blobs.put(oldKey, Readable.from([Buffer.from('old orphan')]));
    await server.container.blobs.put(youngKey, Readable.from([Buffer.from('young orphan')]));
    const now = server.clock.now().getTime();
    await server.setBlobTime(oldKey, new Date(now - 2 * DAY));
    await server.setBlobTime(fileKey, new Date(now - 2 * DAY));
    await server.setBlobTime(youngKey, new Date(now - 60_000));

    // A put that never finishes, as a killed process leaves one (past one S3 part).
    const body = new PassThrough();
    body.write(randomBytes(9 * 1024 * 1024));
    const abandoned = server.container.blobs.put(newId(), body).catch((error: unknown) => error);
    await expect.poll(async () => (await server.unfinishedUploads()).length, { timeout: 30_000 }).toBe(1);

    // A local temp file still being written is young again after each write: the upload is
    // made old until the sweeper has taken it (its last bytes may still land meanwhile).
    let swept = { unfinished: 0, orphans: 0 };
    await expect
      .poll(
        async () => {
          await server.setUnfinishedUploadsTime(new Date(now - 2 * DAY));
          const turn = await server.container.storageUpkeep.sweep();
          swept = { unfinished: swept.unfinished + turn.unfinished, orphans: swept.orphans + turn.orphans };
          return swept.unfinished;
        },
        { timeout: 30_000 },
      )
      .toBe(1);
    expect(swept).toEqual({ unfinished: 1, orphans: 1 });
    body.destroy(new Error('the process is gone'));
    await abandoned;

    expect(await server.container.blobs.exists(oldKey)).toBe(false);
    expect(await server.container.blobs.exists(youngKey)).toBe(true);
    expect(await server.container.blobs.exists(fileKey)).toBe(true);
    expect(await server.unfinishedUploads()).toEqual([]);
    await server.container.blobs.delete(youngKey);
  });
});
