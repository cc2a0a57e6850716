import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { listFiles } from '@cloudvault/test-support/drive';
import { startCuttingProxy } from './helpers/cutting-proxy.ts';
import { s3StorageEnv, startS3rver, type TestS3Server } from './helpers/s3rver.ts';
import { spawnServer, startServerProcess } from './helpers/server-process.ts';
import { storageTotals } from './helpers/storage-totals.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { randomFile, sha256OfResponse, tusUpload } from './helpers/tus-upload.ts';

const MiB = 1024 * 1024;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function downloadSha256(origin: string, token: string, fileId: string): Promise<string> {
  return sha256OfResponse(await fetch(`${origin}/api/files/${fileId}/download`, { headers: { Authorization: `Bearer ${token}` } }));
}

/**
 * The upload cut at random: four 16 MiB chunks (each two of the S3 store's 8 MiB parts) through
 * connections cut after 2 to 12 MiB, so cuts fall inside a part, at its edge and across two
 * PATCHes, about nine times a run and never fewer than five (no connection carries more than
 * 12 MiB of the 64). Sized by the cuts, not by the bytes: 200 MB with cuts of 2 to 40 MiB made
 * as many, and took 97 s of the S3 phase, s3rver writing each part and then the whole again.
 */
const CUT_UPLOAD = { size: 64 * MiB, chunkSize: 16 * MiB, cuts: { minBytes: 2 * MiB, maxBytes: 12 * MiB } };

describe('tus uploads through faults', () => {
  it('finishes 64 MiB in chunks through a proxy that cuts connections at random, byte for byte', async () => {
    const { token, user } = await createUser(server);
    // Room on the quota for the file and the reservations of uploads a cut made again.
    await server.container.database.db.updateTable('users').set({ plan_id: 'PREMIUM' }).where('id', '=', user.id).execute();
    const source = await randomFile(CUT_UPLOAD.size, 'big.bin');
    const proxy = await startCuttingProxy(server.url, CUT_UPLOAD.cuts);
    try {
      const result = await tusUpload({
        origin: proxy.origin,
        token,
        filePath: source.path,
        chunkSize: CUT_UPLOAD.chunkSize,
        retryDelays: Array(200).fill(0),
      });
      expect(proxy.cuts()).toBeGreaterThan(3);
      expect(await downloadSha256(server.url, token, result.fileId as string)).toBe(source.sha256);
      expect((await listFiles(server, token)).map((file) => [file.originalName, file.size])).toEqual([['big.bin', CUT_UPLOAD.size]]);
      // A cut can fall on the answer to the upload's creation: the client then creates it
      // again, and the first, never written to, keeps its reservation until it expires, as
      // any unfinished upload does. Everything else the counter holds is stored files.
      const unfinished = await server.container.database.db
        .selectFrom('resumable_uploads')
        .select(['length', 'hashed_bytes'])
        .where('user_id', '=', user.id)
        .where('file_id', 'is', null)
        .execute();
      expect(unfinished.every((upload) => Number(upload.hashed_bytes) === 0)).toBe(true);
      const reserved = unfinished.reduce((total, upload) => total + Number(upload.length), 0);
      const totals = await storageTotals(server, user.id);
      expect(totals.used, 'storageUsed against stored files plus unfinished uploads').toBe(totals.sum + reserved);
    } finally {
      await proxy.close();
      await rm(path.dirname(source.path), { recursive: true, force: true });
    }
  }, 300_000);

  it('resumes an upload after the server process was killed and started again', async () => {
    const s3: TestS3Server | undefined = process.env.TEST_STORAGE === 's3' ? await startS3rver() : undefined;
    const first = await startServerProcess(s3 ? s3StorageEnv(s3) : {});
    let second: ReturnType<typeof spawnServer> | undefined;
    const source = await randomFile(6 * MiB + 5, 'resumed.bin');
    try {
      const { token } = await createUser(first);
      let uploadUrl = '';
      // Two chunks in, the client stops and the process is killed.
      await new Promise<void>((resolve, reject) => {
        let chunks = 0;
        tusUpload({
          origin: first.url,
          token,
          filePath: source.path,
          chunkSize: MiB,
          onCreated: (url) => (uploadUrl = url),
          onChunk: (upload) => {
            if (++chunks === 2) void upload.abort().then(resolve, reject);
          },
        }).catch(reject);
      });
      first.child.kill('SIGKILL');
      await first.exited;
      second = spawnServer(first.env);
      await waitForReady(second);
      const head = await fetch(uploadUrl, { method: 'HEAD', headers: { Authorization: `Bearer ${token}`, 'Tus-Resumable': '1.0.0' } });
      expect(Number(head.headers.get('upload-offset'))).toBe(2 * MiB);
      const result = await tusUpload({ origin: first.url, token, filePath: source.path, chunkSize: MiB, uploadUrl });
      expect(await downloadSha256(first.url, token, result.fileId as string)).toBe(source.sha256);
    } finally {
      second?.child.kill('SIGKILL');
      await second?.exited;
      await first.stop();
      await s3?.stop();
      await rm(path.dirname(source.path), { recursive: true, force: true });
    }
  }, 120_000);
});

/** Resolves once a spawned server printed that it is ready. */
function waitForReady(server: ReturnType<typeof spawnServer>): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (/CloudVault is ready/.test(server.output())) resolve();
    };
    server.outputChanged(check);
    void server.exited.then(() => reject(new Error(`The server exited before it was ready:\n${server.output()}`)));
    check();
  });
}
