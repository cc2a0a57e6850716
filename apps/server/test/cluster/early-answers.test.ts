import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { type Cluster, startCluster } from './helpers/cluster.ts';
import { rawUpload } from '../helpers/raw-upload.ts';
import { startStreamedUpload } from './helpers/streamed-upload.ts';

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

  const port = Number(new URL(cluster.url).port);
  const answers = [];
  for (let attempt = 0; attempt < 24; attempt += 1) {
    answers.push((await rawUpload({ port, token: user.token, fileBytes: 24 * MiB })).final);
  }
  // The status of each, or undefined where the client read none.
  expect(answers.map((answer) => answer?.status)).toEqual(answers.map(() => 507));
  for (const answer of answers) {
    expect(answer).toMatchObject({
      headers: { 'content-type': expect.stringContaining('application/json') },
      json: { error: expect.stringMatching(/^Not enough storage: 5 MB free of your 500 MB/), code: 'QUOTA_EXCEEDED' },
    });
  }
  const listed = await cluster.request('GET', '/api/files', { token: user.token });
  expect(listed.body.files).toHaveLength(5);

  // A client that asks first (Expect: 100-continue) gets the refusal instead of 100 Continue, on both nodes.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const asked = await rawUpload({ port, token: user.token, fileBytes: 24 * MiB, expectContinue: true });
    expect(
      asked.responses.map((response) => response.status),
      'the answers to a client asking first',
    ).toEqual([507]);
    expect(asked.final?.json).toMatchObject({ code: 'QUOTA_EXCEEDED' });
  }
});
