import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFile } from '@cloudvault/test-support/drive';
import { type Cluster, startCluster } from './helpers/cluster.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster();
});
afterAll(async () => {
  await cluster?.stop();
});

/**
 * With S3 storage a single-file download is a 302 to a short-lived presigned URL
 * (S3_PRESIGNED_DOWNLOADS, on by default with STORAGE_DRIVER=s3; docs/api.md#operations):
 * the bytes come straight from the store, with the headers the node would have sent.
 */
it('sends a file download to a presigned S3 URL whose bytes and headers are the upload', async () => {
  const user = await createUser(cluster);
  const content = randomBytes(5 * 1024 * 1024 + 123);
  const file = await createFile(cluster, user.token, content, { name: 'Résumé 2026.pdf', type: 'application/pdf' });

  // Twice, so each node answers once.
  for (let turn = 0; turn < 2; turn += 1) {
    const answer = await fetch(`${cluster.url}/api/files/${file.id}/download`, {
      headers: { authorization: `Bearer ${user.token}` },
      redirect: 'manual',
    });
    expect(answer.status, `download ${turn + 1}`).toBe(302);
    const location = answer.headers.get('location') ?? '';
    expect(location.startsWith(`${cluster.s3Endpoint}/`), location).toBe(true);

    const fromStore = await fetch(location);
    expect(fromStore.status).toBe(200);
    expect(fromStore.headers.get('content-disposition')).toBe(
      `attachment; filename="Resume 2026.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%202026.pdf`,
    );
    expect(fromStore.headers.get('content-type')).toBe('application/pdf');
    expect(sha256(Buffer.from(await fromStore.arrayBuffer()))).toBe(sha256(content));
  }
});
