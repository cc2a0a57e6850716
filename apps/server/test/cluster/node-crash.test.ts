import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { subscribe } from '@cloudvault/test-support/checkout';
import { type Cluster, requestsLogged, startCluster } from './helpers/cluster.ts';
import { startStreamedUpload } from './helpers/streamed-upload.ts';
import { waitFor, withDeadline } from '../helpers/wait-for.ts';

const MiB = 1024 * 1024;

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster();
});
afterAll(async () => {
  await cluster?.stop();
});

/** Blob keys the database references: every stored file and version, Trash included. */
async function referencedObjects(cluster: Cluster): Promise<string[]> {
  const { rows } = await cluster.db.query<{ key: string }>('SELECT blob_key AS key FROM files UNION SELECT blob_key FROM file_versions');
  // apps/server/src/adapters/blob-store/s3-blob-store.ts keeps every blob under blobs/.
  return rows.map((row) => `blobs/${row.key}`).sort();
}

/**
 * A node dies (SIGKILL) in the middle of a 200 MB upload. The other node serves every request
 * meanwhile; the upload's quota reservation and its S3 multipart upload are taken back by
 * the reconciler and sweeper of the storage-accounting change (UPLOAD_LEASE_SECONDS, set short
 * by helpers/cluster.ts), after which storage is exact again.
 */
it('serves on through a node killed mid-upload, then gives its reservation and parts back', async () => {
  const user = await createUser(cluster);
  // Pro: 200 MB is past the Free plan's per-file limit.
  await subscribe(cluster, user.token);
  const kept = startStreamedUpload(cluster.url, user.token, { name: 'kept.bin', size: 3 * MiB });
  await kept.finish();
  expect(await kept.outcome).toMatchObject({ status: 201 });

  const before = cluster.nodes.map((node) => requestsLogged(node, 'POST', '/api/files/upload'));
  const upload = startStreamedUpload(cluster.url, user.token, { name: 'interrupted.bin', size: 200 * MiB });
  await upload.sendUpTo(100 * MiB);
  const serving = await waitFor('the node serving the upload', async () =>
    cluster.nodes.find((node, index) => requestsLogged(node, 'POST', '/api/files/upload') > (before[index] ?? 0)),
  );
  const survivor = cluster.nodes.find((node) => node !== serving);
  await waitFor('the upload to be under way in S3', async () => (await cluster.bucket.pendingMultipartUploads()).length > 0);

  await serving.kill();
  const killedAt = performance.now();
  const cut = await withDeadline('the cut upload to fail', upload.outcome);
  expect(cut.status, 'an upload whose node died cannot have been stored').not.toBe(201);
  upload.abort();

  // Every request from here on is answered, first by haproxy's retry on the other node, then
  // because the dead one is marked down.
  let served = 0;
  const expectServed = async (path: string) => {
    const response = await cluster.request('GET', path, { token: user.token });
    expect(response.status, `${path} after the kill: ${response.text}`).toBe(200);
    served += 1;
    return response.body;
  };
  let last = { storageUsed: 0, filesSum: 0, objects: [] as string[], referenced: [] as string[], pending: 0 };
  await waitFor(
    'storage to be exact again (storageUsed = the files, the bucket = the rows, no multipart upload left)',
    async () => {
      const dashboard = await expectServed('/api/user/dashboard');
      const listed = await expectServed('/api/files');
      last = {
        storageUsed: dashboard.storageInfo.storageUsed,
        filesSum: listed.files.reduce((sum: number, file: { size: number }) => sum + file.size, 0),
        objects: await cluster.bucket.objectKeys(),
        referenced: await referencedObjects(cluster),
        pending: (await cluster.bucket.pendingMultipartUploads()).length,
      };
      return last.storageUsed === last.filesSum && last.pending === 0 && last.objects.join() === last.referenced.join();
    },
    120_000,
    500,
  ).catch((error: unknown) => {
    throw new Error(`${String(error)}; last seen: ${JSON.stringify(last)}`);
  });
  const seconds = (performance.now() - killedAt) / 1000;
  console.log(`Kill to exact storage: ${seconds.toFixed(1)} s (${served} requests served meanwhile by ${survivor?.name})`);
  expect(last.filesSum).toBe(3 * MiB);

  await cluster.startNode(serving);
  expect(await cluster.balancer.serverStates()).toEqual({ node1: expect.stringMatching(/^UP/), node2: expect.stringMatching(/^UP/) });
});
