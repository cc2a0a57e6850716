import { randomBytes } from 'node:crypto';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFile, downloadFile, listFiles, uploadFile } from '@cloudvault/test-support/drive';
import { holdDownload } from '../helpers/held-download.ts';
import { startS3FaultProxy, type S3FaultProxy } from '../helpers/s3-fault-proxy.ts';
import { S3_CREDENTIALS, s3StorageEnv, startS3rver, type TestS3Server } from '../helpers/s3rver.ts';
import { assertStorageConsistent } from '../helpers/storage-totals.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';
import { waitFor } from '../helpers/wait-for.ts';

/**
 * The object store fails for a while: a proxy in front of s3rver answers 503 or takes
 * requests and never answers. The server's S3 requests give up after S3_IDLE_TIMEOUT_SECONDS
 * of silence and S3_MAX_ATTEMPTS tries (here 1 s and 2), so an affected request answers
 * 503 STORAGE_UNAVAILABLE with Retry-After in seconds, keeps nothing, and everything works
 * again once the store does, without a restart.
 */
const MiB = 1024 * 1024;
/** Two tries of at most a second's silence each, with the SDK's backoff between: well under this. */
const ANSWER_BOUND_MS = 8_000;

let s3: TestS3Server | undefined;
let proxy: S3FaultProxy | undefined;
let server: TestServer | undefined;

beforeAll(async () => {
  s3 = await startS3rver();
  proxy = await startS3FaultProxy(s3.endpoint);
  server = await startTestServer({
    env: {
      ...s3StorageEnv({ endpoint: proxy.endpoint, bucket: s3.bucket }),
      // Downloads stream through the server, so their stalls are the server's to bound.
      S3_PRESIGNED_DOWNLOADS: 'false',
      S3_CONNECT_TIMEOUT_SECONDS: '1',
      S3_IDLE_TIMEOUT_SECONDS: '1',
      S3_MAX_ATTEMPTS: '2',
    },
  });
});

afterAll(async () => {
  try {
    await server?.close();
  } finally {
    await proxy?.close();
    await s3?.stop();
  }
});

const running = () => server as TestServer;
const faults = () => proxy as S3FaultProxy;

/** Object keys in the bucket and multipart uploads still pending, seen straight from s3rver. */
async function bucketContents(): Promise<{ objects: string[]; pendingUploads: string[] }> {
  const store = s3 as TestS3Server;
  const client = new S3Client({ region: 'us-east-1', endpoint: store.endpoint, forcePathStyle: true, credentials: S3_CREDENTIALS });
  try {
    const listed = await client.send(new ListObjectsV2Command({ Bucket: store.bucket }));
    return {
      objects: (listed.Contents ?? []).map((object) => object.Key as string).sort(),
      pendingUploads: await store.pendingMultipartUploads(),
    };
  } finally {
    client.destroy();
  }
}

async function listedBlobKeys(): Promise<string[]> {
  const rows = await running().container.database.db.selectFrom('files').select('blob_key').execute();
  return rows.map((row) => `blobs/${row.blob_key}`).sort();
}

async function reservationsOf(userId: string): Promise<number> {
  return (await running().container.database.db.selectFrom('upload_reservations').select('id').where('user_id', '=', userId).execute())
    .length;
}

/** Times one call, so a test can say the answer came within the timeouts rather than hanging. */
async function timed<T>(call: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = Date.now();
  const result = await call();
  return { result, ms: Date.now() - started };
}

function expectUnavailable(answer: { status: number; headers: Headers }, body: unknown) {
  expect(answer.status).toBe(503);
  expect(answer.headers.get('retry-after')).toBe('5');
  expect(answer.headers.get('content-type')).toContain('application/json');
  expect(body).toMatchObject({ code: 'STORAGE_UNAVAILABLE', error: expect.stringContaining('try again') });
}

/** Once the store answers again (and the node has stopped failing fast), a download of `file` works. */
async function waitForRecovery(token: string, fileId: string) {
  await waitFor(
    'the store to serve downloads again',
    async () => (await downloadFile(running(), token, fileId)).status === 200,
    30_000,
    250,
  );
}

/** After the fault: every acknowledged file intact, the accounting exact, nothing half-written in the bucket. */
async function expectNothingLostOrLeft(user: { id: string; token: string }, kept: Map<string, Buffer>) {
  for (const [id, bytes] of kept) {
    const download = await downloadFile(running(), user.token, id);
    expect(download.status).toBe(200);
    expect(download.bytes.equals(bytes)).toBe(true);
  }
  expect(await reservationsOf(user.id)).toBe(0);
  const totals = await assertStorageConsistent(running(), user.id);
  expect(totals.used).toBe([...kept.values()].reduce((sum, bytes) => sum + bytes.length, 0));
  // What a failed upload queued for deletion while the store was down goes with the next run of the job.
  await running().container.storageUpkeep.deleteQueuedBlobs();
  const contents = await bucketContents();
  expect(contents.pendingUploads).toEqual([]);
  expect(contents.objects).toEqual(await listedBlobKeys());
}

describe('an object store that fails for a while', () => {
  it('answers uploads and downloads 503 STORAGE_UNAVAILABLE while it answers 503, keeps nothing of them, and works again after', async () => {
    const user = await createUser(running());
    const keptBytes = randomBytes(2 * MiB);
    const kept = await createFile(running(), user.token, keptBytes, { name: 'kept.bin' });

    faults().setFault('unavailable');
    try {
      for (const size of [MiB, 20 * MiB]) {
        const { result: refused, ms } = await timed(() =>
          uploadFile(running(), user.token, randomBytes(size), { name: `refused-${size}.bin` }),
        );
        expectUnavailable(refused, refused.body);
        expect(ms).toBeLessThan(ANSWER_BOUND_MS);
      }
      const download = await downloadFile(running(), user.token, kept.id);
      expectUnavailable(download, JSON.parse(download.bytes.toString()));
      // What needs only the database goes on.
      expect((await listFiles(running(), user.token)).map((file) => file.originalName)).toEqual(['kept.bin']);
      expect(await reservationsOf(user.user.id)).toBe(0);
      expect(faults().faultedRequests()).toBeGreaterThan(0);
      expect(running().logs()).toContain('answered 503 STORAGE_UNAVAILABLE');
    } finally {
      faults().setFault('none');
    }

    await waitForRecovery(user.token, kept.id);
    const afterBytes = randomBytes(20 * MiB);
    const after = await createFile(running(), user.token, afterBytes, { name: 'after.bin' });
    await expectNothingLostOrLeft(
      { id: user.user.id, token: user.token },
      new Map([
        [kept.id, keptBytes],
        [after.id, afterBytes],
      ]),
    );
  });

  it('answers an upload 503 within the timeouts while the store takes requests and never answers', async () => {
    const user = await createUser(running());
    const keptBytes = randomBytes(MiB);
    const kept = await createFile(running(), user.token, keptBytes, { name: 'kept.bin' });

    faults().setFault('stall');
    try {
      const { result: refused, ms } = await timed(() => uploadFile(running(), user.token, randomBytes(MiB), { name: 'stalled.bin' }));
      expectUnavailable(refused, refused.body);
      expect(ms).toBeLessThan(ANSWER_BOUND_MS);
      expect((await running().request('GET', '/api/files', { token: user.token })).status).toBe(200);
    } finally {
      faults().setFault('none');
    }

    await waitForRecovery(user.token, kept.id);
    await expectNothingLostOrLeft({ id: user.user.id, token: user.token }, new Map([[kept.id, keptBytes]]));
  });

  it('answers a tus PATCH 503 within the timeouts when the store stalls on its part, and the upload can be ended after', async () => {
    const user = await createUser(running());
    const bytes = randomBytes(MiB);
    const tus = { 'tus-resumable': '1.0.0' };
    const created = await running().request('POST', '/api/uploads', {
      token: user.token,
      headers: {
        ...tus,
        'upload-length': String(bytes.length),
        'upload-metadata': `filename ${Buffer.from('stalled.bin').toString('base64')}`,
      },
    });
    expect(created.status).toBe(201);
    const uploadPath = new URL(created.headers.get('location') as string, running().url).pathname;

    // The part's upload stalls (PUT …?partNumber=…&uploadId=…); looking the upload up works.
    faults().setFault('stall', (method, url) => method === 'PUT' && url.includes('partNumber='));
    try {
      const { result: refused, ms } = await timed(() =>
        running().request('PATCH', uploadPath, {
          token: user.token,
          rawBody: bytes,
          headers: { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        }),
      );
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ code: 'STORAGE_UNAVAILABLE' });
      expect(ms).toBeLessThan(ANSWER_BOUND_MS);
    } finally {
      faults().setFault('none');
    }

    await waitFor(
      "the store to take the upload's end",
      async () => (await running().request('DELETE', uploadPath, { token: user.token, headers: tus })).status === 204,
      30_000,
      250,
    );
    await expectNothingLostOrLeft({ id: user.user.id, token: user.token }, new Map());
  });

  it('answers a download 503 within the timeouts while the store stalls, and cuts one stalled mid-body, giving back its transfer memory', async () => {
    const user = await createUser(running());
    const bigBytes = randomBytes(24 * MiB);
    const big = await createFile(running(), user.token, bigBytes, { name: 'big.bin' });
    const budget = running().container.transferBudget;

    faults().setFault('stall');
    try {
      const { result: refused, ms } = await timed(() => downloadFile(running(), user.token, big.id));
      expectUnavailable(refused, JSON.parse(refused.bytes.toString()));
      expect(ms).toBeLessThan(ANSWER_BOUND_MS);
    } finally {
      faults().setFault('none');
    }
    await waitForRecovery(user.token, big.id);

    // The body has begun (headers in, the client reading nothing) when the store stalls.
    const held = await holdDownload(`${running().url}/api/files/${big.id}/download`, user.token);
    expect(held.status).toBe(200);
    expect(budget.inUse).toBeGreaterThan(0);
    faults().setFault('stall');
    try {
      const started = Date.now();
      await waitFor('the stalled download to give back its transfer memory', async () => budget.inUse === 0, ANSWER_BOUND_MS, 50);
      expect(Date.now() - started).toBeLessThan(ANSWER_BOUND_MS);
      held.resume();
      // Cut, not ended as if complete: the client can tell and resume with Range.
      const body = await held.body.then(
        (bytes) => bytes.length,
        () => -1,
      );
      expect(body).toBeLessThan(bigBytes.length);
    } finally {
      faults().setFault('none');
    }

    await waitForRecovery(user.token, big.id);
    await expectNothingLostOrLeft({ id: user.user.id, token: user.token }, new Map([[big.id, bigBytes]]));
  });
});
