import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { changesAfter, changesMadeBy, latestCursor } from '@cloudvault/test-support/changes';
import { createFolder } from '@cloudvault/test-support/drive';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { waitFor, withDeadline } from './helpers/wait-for.ts';

/**
 * A request held open until `destroy()` closes its connection, as a client that goes away
 * does (an aborted fetch may leave its connection open to the server); `answer` settles
 * when the server answers.
 */
function holdRequest(
  url: string,
  token: string,
): { answer: Promise<{ status: number; retryAfter?: string; body: string }>; destroy(): void } {
  let held!: http.ClientRequest;
  const answer = new Promise<{ status: number; retryAfter?: string; body: string }>((resolve, reject) => {
    held = http.get(url, { headers: { authorization: `Bearer ${token}` } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, retryAfter: response.headers['retry-after'], body }));
      response.on('error', reject);
    });
    held.on('error', reject);
  });
  answer.catch(() => undefined);
  return { answer, destroy: () => held.destroy() };
}

/** The server-sent events of a stream, parsed: comments skipped. */
async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<{ event: string; id?: string; data: unknown }> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of body) {
    buffered += decoder.decode(chunk, { stream: true });
    for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const fields = Object.fromEntries(
        block
          .split('\n')
          .filter((line) => !line.startsWith(':'))
          .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
      );
      if (fields.event) yield { event: fields.event, id: fields.id, data: JSON.parse(fields.data ?? 'null') };
    }
  }
}

// The change feed over HTTP (docs/api.md#change-feed): cursors, pages, the wait, 400 and
// 410, and another account's cursor. What each path writes is proven beside the path.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('the change feed', () => {
  it('answers the changes after a cursor in commit order, in pages, with the state after each', async () => {
    const { token } = await createUser(server);
    const start = await latestCursor(server, token);
    const first = await createFolder(server, token, 'One');
    const second = await createFolder(server, token, 'Two', first.id);
    const page = await changesAfter(server, token, start, '&limit=1');
    expect(page.hasMore).toBe(true);
    expect(page.changes).toEqual([
      { op: 'created', kind: 'folder', id: first.id, parentId: null, name: 'One', at: expect.any(String), modifiedAt: expect.any(String) },
    ]);
    const rest = await changesAfter(server, token, page.cursor);
    expect(rest).toMatchObject({
      hasMore: false,
      changes: [{ op: 'created', kind: 'folder', id: second.id, parentId: first.id, name: 'Two' }],
    });
    expect(await changesAfter(server, token, rest.cursor)).toEqual({ changes: [], cursor: rest.cursor, hasMore: false });
    expect(await latestCursor(server, token)).toBe(rest.cursor);
  });

  it('refuses a malformed cursor, a bad limit or wait with 400, and shows nothing of another account through its cursor', async () => {
    const ada = await createUser(server);
    const bob = await createUser(server);
    for (const query of [
      'cursor=nope',
      'cursor=',
      'cursor=MTp4OjE',
      `cursor=${await latestCursor(server, ada.token)}&limit=0`,
      `cursor=${await latestCursor(server, ada.token)}&wait=61`,
    ]) {
      const answer = await server.request('GET', `/api/changes?${query}`, { token: ada.token });
      expect(answer.status, query).toBe(400);
      expect(answer.body.error).toEqual(expect.any(String));
    }
    const adaCursor = await latestCursor(server, ada.token);
    await createFolder(server, ada.token, 'Private');
    const answer = await server.request('GET', `/api/changes?cursor=${adaCursor}`, { token: bob.token });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).not.toContain('Private');
    expect((await server.request('GET', '/api/changes/latest')).status).toBe(401);
  });

  it('waits until a change is committed, and times out with none and the same cursor', async () => {
    const { token } = await createUser(server);
    const cursor = await latestCursor(server, token);
    const waiting = changesAfter(server, token, cursor, '&wait=30');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const folder = await createFolder(server, token, 'Woken');
    expect((await waiting).changes).toMatchObject([{ op: 'created', id: folder.id }]);

    const started = Date.now();
    const empty = await changesAfter(server, token, await latestCursor(server, token), '&wait=1');
    expect(empty.changes).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('holds at most 25 waiting requests per account, and answers 429 with Retry-After beyond', async () => {
    const { token } = await createUser(server);
    const other = await createUser(server);
    const cursor = await latestCursor(server, token);
    // 26 at once: 25 are held, and the one refused is the first to be answered.
    const waits = Array.from({ length: 26 }, () => holdRequest(`${server.url}/api/changes?cursor=${cursor}&wait=60`, token));
    const refused = await Promise.race(waits.map((wait) => wait.answer));
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toMatch(/^[0-9]+$/);
    expect(JSON.parse(refused.body).code).toBe('TOO_MANY_LISTENERS');
    // Another account is not held up, and a read without a wait never counts.
    expect(
      (await server.request('GET', `/api/changes?cursor=${await latestCursor(server, other.token)}&wait=1`, { token: other.token })).status,
    ).toBe(200);
    expect((await server.request('GET', `/api/changes?cursor=${cursor}`, { token })).status).toBe(200);
    // Clients that leave give their places back.
    for (const wait of waits) wait.destroy();
    await waitFor(
      'the places to be given back',
      async () => (await server.request('GET', `/api/changes?cursor=${cursor}&wait=1`, { token })).status === 200,
    );
  });

  it('streams changes as server-sent events, and refuses a bad or expired cursor as JSON before the stream', async () => {
    const { token } = await createUser(server);
    expect((await server.request('GET', '/api/changes/stream?cursor=nope', { token })).status).toBe(400);
    // Left open: the server's closing ends it (proven below).
    const response = await fetch(`${server.url}/api/changes/stream?cursor=${await latestCursor(server, token)}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = readEvents(response.body!);
    const folder = await createFolder(server, token, 'Streamed');
    const event = await events.next();
    expect(event.value).toMatchObject({
      event: 'changes',
      data: { changes: [{ op: 'created', id: folder.id, name: 'Streamed' }], hasMore: false },
    });
    expect((event.value as { id: string }).id).toBe((event.value as { data: { cursor: string } }).data.cursor);
  });

  it('ends its waits and streams when the server closes, instead of holding the shutdown', async () => {
    const closing = await startTestServer();
    const { token } = await createUser(closing);
    const cursor = await latestCursor(closing, token);
    const stream = await fetch(`${closing.url}/api/changes/stream?cursor=${cursor}`, { headers: { authorization: `Bearer ${token}` } });
    const waiting = fetch(`${closing.url}/api/changes?cursor=${cursor}&wait=60`, { headers: { authorization: `Bearer ${token}` } });
    const events = readEvents(stream.body!);
    await waitFor(
      'the wait to be held',
      async () => (await closing.request('GET', `/api/changes?cursor=${cursor}&wait=1`, { token })).status === 200,
    );
    await withDeadline('the server to close', closing.close(), 20_000);
    expect((await events.next()).done).toBe(true);
    expect(await (await waiting).json()).toEqual({ changes: [], cursor, hasMore: false });
  });

  it('records each path in the owner’s feed: folders', async () => {
    const { token } = await createUser(server);
    let id = '';
    const changes = await changesMadeBy(server, token, async () => {
      id = (await createFolder(server, token, 'Made')).id;
    });
    expect(changes).toMatchObject([{ op: 'created', kind: 'folder', id, parentId: null, name: 'Made' }]);
  });
});
