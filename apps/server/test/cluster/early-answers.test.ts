import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from './helpers/api.ts';
import { type Cluster, startCluster } from './helpers/cluster.ts';
import { startStreamedUpload } from './helpers/streamed-upload.ts';
import { uploadAskingFirst, uploadWholeBodyThenRead } from './helpers/whole-body-client.ts';

const MiB = 1024 * 1024;

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster();
});
afterAll(async () => {
  await cluster?.stop();
});

/**
 * A refused upload's answer reaches a client that sends its whole body before reading
 * (docs/api.md#files): through the balancer, on both nodes, every time. The bodies are
 * larger than what a node drains (8 MiB), so the node answers while bytes are still coming.
 * A client that asks before sending (`Expect: 100-continue`) is answered before any byte.
 */
it('answers every too-big upload of a user near quota with a 507 the client reads', async () => {
  const user = await createUser(cluster);
  // Free: 500 MB in all, 102.4 MB per file. Four files of 100 MiB and one of 95 MiB leave 5 MiB.
  for (const [index, size] of [100, 100, 100, 100, 95].entries()) {
    const upload = startStreamedUpload(cluster.url, user.token, { name: `fill-${index}.bin`, size: size * MiB });
    await upload.finish();
    expect(await upload.outcome, `filling upload ${index}`).toMatchObject({ status: 201 });
  }

  const outcomes = [];
  for (let attempt = 0; attempt < 24; attempt += 1) {
    outcomes.push(await uploadWholeBodyThenRead(cluster.url, user.token, { name: `too-big-${attempt}.bin`, size: 24 * MiB }));
  }
  // The status of each, or why the client got none.
  expect(outcomes.map((outcome) => ('error' in outcome ? outcome.error : outcome.status))).toEqual(outcomes.map(() => 507));
  for (const outcome of outcomes) {
    expect(outcome).toMatchObject({
      headers: { 'content-type': expect.stringContaining('application/json') },
      body: { error: expect.stringMatching(/^Not enough storage: 5 MB free of your 500 MB/), code: 'QUOTA_EXCEEDED' },
    });
  }
  const listed = await cluster.request('GET', '/api/files', { token: user.token });
  expect(listed.body.files).toHaveLength(5);

  // A client that asks first (Expect: 100-continue) gets the refusal instead of 100 Continue, on both nodes.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const asked = await uploadAskingFirst(cluster.url, user.token, { name: `asked-${attempt}.bin`, size: 24 * MiB });
    expect(asked, 'the answer to a client asking first').toMatchObject({ status: 507, body: { code: 'QUOTA_EXCEEDED' } });
  }
});
