import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { type Cluster, requestsLogged, startCluster } from './helpers/cluster.ts';
import { startStreamedUpload, type StreamedUpload, type UploadOutcome } from './helpers/streamed-upload.ts';
import { waitFor } from '../helpers/wait-for.ts';

const MiB = 1024 * 1024;

// Limits hold for the whole service, not per node: the counters live in Redis (REDIS_URL) and
// the upload slots in the shared database (docs/api.md#rate-limits, docs/api.md#files).
describe('limits shared by the nodes', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster();
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it('refuses the 11th failed sign-in of an e-mail after 10 in all, spread over both nodes', async () => {
    const user = await createUser(cluster);
    const before = cluster.nodes.map((node) => requestsLogged(node, 'POST', '/api/auth/login'));
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      const failed = await cluster.request('POST', '/api/auth/login', { body: { email: user.email, password: 'not the password' } });
      expect(failed.status, `failed sign-in ${attempt}: ${failed.text}`).toBe(401);
    }
    // Round robin with no stickiness: half of the attempts went to each node.
    expect(cluster.nodes.map((node, index) => requestsLogged(node, 'POST', '/api/auth/login') - (before[index] ?? 0))).toEqual([5, 5]);

    // The next attempts, one on each node, are refused, even with the right password.
    for (const password of ['not the password', user.password]) {
      const refused = await cluster.request('POST', '/api/auth/login', { body: { email: user.email, password } });
      expect(refused.status, refused.text).toBe(429);
      expect(refused.body).toEqual({
        error: expect.stringMatching(/^Too many attempts\. Please try again in \d+ minutes?\.$/),
        code: 'RATE_LIMITED',
      });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('runs exactly 3 uploads of a Free user at once across both nodes: the fourth is refused, the three finish', async () => {
    const user = await createUser(cluster);
    const size = 4 * MiB;
    const uploads: StreamedUpload[] = [];
    const settled = new Map<number, UploadOutcome>();
    try {
      for (let index = 0; index < 4; index += 1) {
        const upload = startStreamedUpload(cluster.url, user.token, { name: `slow-${index}.bin`, size });
        void upload.outcome.then((outcome) => settled.set(index, outcome));
        uploads.push(upload);
      }
      // Each sends half its bytes and holds there, so all four are running at the same time.
      await Promise.all(uploads.map((upload) => upload.sendUpTo(size / 2).catch(() => {})));
      await waitFor('one of the four uploads to be refused', async () => settled.size > 0, 30_000);

      expect(settled.size, 'only one upload is answered before the bodies are complete').toBe(1);
      const [[refusedIndex, refused]] = [...settled] as [[number, UploadOutcome]];
      expect(refused).toEqual({
        status: 429,
        body: { error: 'The Free plan uploads 3 files at a time. Wait for one to finish.', code: 'TOO_MANY_UPLOADS' },
      });

      const accepted = uploads.filter((_upload, index) => index !== refusedIndex);
      await Promise.all(accepted.map((upload) => upload.finish()));
      const outcomes = await Promise.all(accepted.map((upload) => upload.outcome));
      for (const outcome of outcomes) expect(outcome).toMatchObject({ status: 201, body: { file: { size } } });

      const listed = await cluster.request('GET', '/api/files', { token: user.token });
      expect(listed.body.files).toHaveLength(3);
      const dashboard = await cluster.request('GET', '/api/user/dashboard', { token: user.token });
      expect(dashboard.body.storageInfo.storageUsed).toBe(3 * size);
    } finally {
      for (const upload of uploads) upload.abort();
    }
  });
});
