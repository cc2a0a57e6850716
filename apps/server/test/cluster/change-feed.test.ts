import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ChangesResponse } from '@cloudvault/contract/changes';
import { createUser } from '@cloudvault/test-support/accounts';
import { latestCursor } from '@cloudvault/test-support/changes';
import { createFolder } from '@cloudvault/test-support/drive';
import { type Cluster, startCluster } from './helpers/cluster.ts';
import { withDeadline } from '../helpers/wait-for.ts';

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster();
});
afterAll(async () => {
  await cluster?.stop();
});

const WAIT_SECONDS = 30;
/** CHANGE_FEED.listenersPerAccount (policies.ts): a node refuses the next one with 429. */
const LISTENERS_PER_ACCOUNT = 25;

/** A long poll's answer and when it arrived, counted from just before it was sent. */
interface Answer {
  status: number;
  body: ChangesResponse;
  afterMs: number;
}

function waitForChanges(nodeUrl: string, token: string, cursor: string): Promise<Answer> {
  const sent = Date.now();
  return fetch(`${nodeUrl}/api/changes?cursor=${cursor}&wait=${WAIT_SECONDS}`, { headers: { authorization: `Bearer ${token}` } }).then(
    async (response) => ({ status: response.status, body: (await response.json()) as ChangesResponse, afterMs: Date.now() - sent }),
  );
}

/** A change stream (server-sent events over a fetch with the bearer header) and the events it has sent so far. */
async function openStream(nodeUrl: string, token: string, cursor: string) {
  const controller = new AbortController();
  const response = await fetch(`${nodeUrl}/api/changes/stream?cursor=${cursor}`, {
    headers: { authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  /** Reads until `done` holds of everything received; the text so far. */
  const readUntil = async (done: (text: string) => boolean) => {
    while (!done(text)) {
      const { value, done: ended } = await reader.read();
      if (ended) throw new Error(`the stream ended after:\n${text}`);
      text += value;
    }
    return text;
  };
  return { readUntil, close: () => controller.abort() };
}

/** The `changes` events in a stream's text. */
const changeEvents = (text: string): ChangesResponse[] =>
  text
    .split('\n\n')
    .filter((event) => event.includes('event: changes\n'))
    .map((event) => JSON.parse(/^data: (.*)$/m.exec(event)![1]!) as ChangesResponse);

/**
 * Wake-ups cross nodes (docs/api.md#change-feed): a change committed through node A wakes
 * the waiting requests and the stream held by node B, through PostgreSQL's LISTEN/NOTIFY.
 * Each node is addressed directly, not through the balancer, so which node holds the
 * waiters and which commits the change is certain.
 */
it('answers the waiting requests and the stream on node B with a change committed through node A, before the wait runs out', async () => {
  const [nodeA, nodeB] = cluster.nodes;
  const { token } = await createUser(cluster);
  const cursor = await latestCursor({ url: nodeB.url }, token);

  // The stream takes one of the account's places on node B once it has said it is connected.
  const stream = await openStream(nodeB.url, token, cursor);
  try {
    await withDeadline(
      'the stream to connect',
      stream.readUntil((text) => text.includes(': connected\n\n')),
    );

    // One request more than the places left: node B refuses exactly one at once, which
    // proves the others are all waiting there before the change is made.
    const requests = Array.from({ length: LISTENERS_PER_ACCOUNT }, () => waitForChanges(nodeB.url, token, cursor));
    const refused = await withDeadline('one waiting request to be refused', Promise.race(requests));
    expect(refused.status, JSON.stringify(refused.body)).toBe(429);

    const folder = await createFolder({ url: nodeA.url }, token, 'Made on node A');

    const answers = await Promise.all(requests);
    const waited = answers.filter((answer) => answer !== refused);
    expect(waited).toHaveLength(LISTENERS_PER_ACCOUNT - 1);
    for (const answer of waited) {
      expect(answer.status).toBe(200);
      expect(answer.body.changes).toMatchObject([{ op: 'created', kind: 'folder', id: folder.id, name: 'Made on node A' }]);
      // A node that missed the notification would answer only when the wait ran out.
      expect(answer.afterMs).toBeLessThan(WAIT_SECONDS * 1000);
    }

    const events = changeEvents(
      await withDeadline(
        'the stream to send the change',
        stream.readUntil((text) => changeEvents(text).length > 0),
        WAIT_SECONDS * 1000,
      ),
    );
    expect(events[0]!.changes).toMatchObject([{ op: 'created', kind: 'folder', id: folder.id, name: 'Made on node A' }]);
    expect(events[0]!.cursor).toBe(waited[0]!.body.cursor);
  } finally {
    stream.close();
  }
});
