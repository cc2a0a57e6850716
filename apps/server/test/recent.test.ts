import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFile, createFolder, downloadFile } from '@cloudvault/test-support/drive';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

// Recent over HTTP (docs/api.md#recent): what counts as opened, changed or uploaded, the
// order, each file once, Trash left out, and an open written at most once a minute.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const recent = async (token: string, query = '') => {
  const answer = await server.request('GET', `/api/recent${query}`, { token });
  expect(answer.status).toBe(200);
  return answer.body as {
    files: Array<{ id: string; originalName: string; folderId: string | null }>;
    folders: Array<{ id: string; name: string }>;
  };
};
const names = async (token: string, query = '') => (await recent(token, query)).files.map((file) => file.originalName);
const openInViewer = (token: string, id: string) => server.request('POST', `/api/files/${id}/download-link`, { token });
const minute = 60_000;

describe('recent files', () => {
  it('lists uploads, opens and changes across folders, newest first, each file once, none in Trash', async () => {
    const { token } = await createUser(server);
    const folder = await createFolder(server, token, 'Reports');
    const old = await createFile(server, token, 'old', { name: 'old.txt', folderId: folder.id });
    server.clock.advance(minute);
    const middle = await createFile(server, token, 'middle', { name: 'middle.txt' });
    server.clock.advance(minute);
    const fresh = await createFile(server, token, 'fresh', { name: 'fresh.txt' });
    expect(await names(token)).toEqual(['fresh.txt', 'middle.txt', 'old.txt']);

    // Opened in the viewer (a download link), then downloaded: first, and listed once.
    server.clock.advance(minute);
    expect((await openInViewer(token, old.id)).status).toBe(200);
    const view = await recent(token);
    expect(view.files.map((file) => file.originalName)).toEqual(['old.txt', 'fresh.txt', 'middle.txt']);
    expect(view.folders).toMatchObject([{ id: folder.id, name: 'Reports' }]);
    server.clock.advance(minute);
    expect((await downloadFile(server, token, middle.id)).status).toBe(200);
    expect(await names(token)).toEqual(['middle.txt', 'old.txt', 'fresh.txt']);

    // Renamed or moved: changed, so first.
    server.clock.advance(minute);
    await server.request('PATCH', `/api/files/${fresh.id}`, { token, body: { folderId: folder.id } });
    expect(await names(token)).toEqual(['fresh.txt', 'middle.txt', 'old.txt']);

    // In Trash: gone from Recent.
    await server.request('DELETE', `/api/files/${middle.id}`, { token });
    expect(await names(token)).toEqual(['fresh.txt', 'old.txt']);
    expect(await names(token, '?limit=1')).toEqual(['fresh.txt']);
  });

  it('writes an open at most once a minute, and only the owner’s', async () => {
    const owner = await createUser(server);
    const other = await createUser(server);
    const file = await createFile(server, owner.token, 'watched', { name: 'film.mp4' });
    const opens = () =>
      server.container.database.db.selectFrom('file_opens').select(['opened_at', 'user_id']).where('file_id', '=', file.id).execute();

    await openInViewer(owner.token, file.id);
    const first = await opens();
    expect(first).toHaveLength(1);
    server.clock.advance(minute / 2);
    await openInViewer(owner.token, file.id);
    await downloadFile(server, owner.token, file.id, { range: 'bytes=0-1' });
    expect(await opens()).toEqual(first);
    server.clock.advance(minute);
    await openInViewer(owner.token, file.id);
    expect((await opens())[0]!.opened_at > first[0]!.opened_at).toBe(true);

    expect((await openInViewer(other.token, file.id)).status).toBe(404);
    expect(await names(other.token)).toEqual([]);
  });

  it('refuses a limit outside 1 to 50', async () => {
    const { token } = await createUser(server);
    for (const limit of ['0', '51', 'x']) {
      const refused = await server.request('GET', `/api/recent?limit=${limit}`, { token });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toEqual(expect.any(String));
    }
  });
});
