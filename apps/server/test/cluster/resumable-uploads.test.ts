import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { listFiles } from '@cloudvault/test-support/drive';
import { randomFile, sha256OfResponse, tusUpload } from '../helpers/tus-upload.ts';
import { type Cluster, requestsLogged, startCluster } from './helpers/cluster.ts';

const MiB = 1024 * 1024;
let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster();
});
afterAll(async () => {
  await cluster?.stop();
});

it('finishes on node B an upload that node A created and took the first PATCH of', async () => {
  const [nodeA, nodeB] = cluster.nodes;
  const { token } = await createUser(cluster);
  // Four chunks, three of them over 5 MiB: S3 parts, and a last piece as the store's incomplete part.
  const source = await randomFile(3 * 6 * MiB + 11, 'travelled.bin');
  try {
    let uploadUrl = '';
    await new Promise<void>((resolve, reject) => {
      tusUpload({
        origin: nodeA.url,
        token,
        filePath: source.path,
        chunkSize: 6 * MiB,
        onCreated: (url) => (uploadUrl = url),
        onChunk: (upload) => void upload.abort().then(resolve, reject),
      }).catch(reject);
    });
    const uploadPath = new URL(uploadUrl).pathname;
    const result = await tusUpload({
      origin: nodeB.url,
      token,
      filePath: source.path,
      chunkSize: 6 * MiB,
      uploadUrl: `${nodeB.url}${uploadPath}`,
    });

    expect([requestsLogged(nodeA, 'POST', '/api/uploads'), requestsLogged(nodeA, 'PATCH', uploadPath)]).toEqual([1, 1]);
    expect([requestsLogged(nodeB, 'POST', '/api/uploads'), requestsLogged(nodeB, 'PATCH', uploadPath)]).toEqual([0, 3]);
    const download = await fetch(`${cluster.url}/api/files/${result.fileId}/download`, {
      headers: { Authorization: `Bearer ${token}` },
      redirect: 'follow',
    });
    expect(await sha256OfResponse(download)).toBe(source.sha256);
    expect((await listFiles(cluster, token)).map((file) => file.originalName)).toEqual(['travelled.bin']);
  } finally {
    await rm(path.dirname(source.path), { recursive: true, force: true });
  }
}, 120_000);
