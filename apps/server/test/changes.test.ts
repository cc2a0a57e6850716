import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { changesAfter, changesMadeBy, latestCursor } from '@cloudvault/test-support/changes';
import { createFolder } from '@cloudvault/test-support/drive';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

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

  it('records each path in the owner’s feed: folders', async () => {
    const { token } = await createUser(server);
    let id = '';
    const changes = await changesMadeBy(server, token, async () => {
      id = (await createFolder(server, token, 'Made')).id;
    });
    expect(changes).toMatchObject([{ op: 'created', kind: 'folder', id, parentId: null, name: 'Made' }]);
  });
});
