import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFolder, uploadFile } from '@cloudvault/test-support/drive';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** The account's activity details of one type, in no particular order (the test clock stands still). */
async function entries(token: string, type: string): Promise<Array<Record<string, string>>> {
  const overview = await server.request('GET', '/api/user/overview', { token });
  return (overview.body.activity as Array<{ type: string; details: Record<string, string> }>)
    .filter((entry) => entry.type === type)
    .map((entry) => entry.details)
    .sort((a, b) => `${a.item}${a.name}`.localeCompare(`${b.item}${b.name}`));
}

describe('the activity names files and folders (issue 36)', () => {
  it('keeps the names of a rename, a move and a Trash as they were then, for files and folders', async () => {
    const { token } = await createUser(server);
    const folder = (await createFolder(server, token, 'Drafts')).id;
    const archive = (await createFolder(server, token, 'Archive')).id;
    const file = (await uploadFile(server, token, 'words', { name: 'draft.txt' })).body.file.id as string;

    expect((await server.request('PATCH', `/api/files/${file}`, { token, body: { name: 'final.txt' } })).status).toBe(200);
    expect((await server.request('PATCH', `/api/files/${file}`, { token, body: { folderId: folder } })).status).toBe(200);
    expect((await server.request('PATCH', `/api/user/folders/${folder}`, { token, body: { name: 'Done' } })).status).toBe(200);
    expect((await server.request('PATCH', `/api/user/folders/${folder}`, { token, body: { parentId: archive } })).status).toBe(200);
    expect((await server.request('DELETE', `/api/files/${file}`, { token })).status).toBe(200);
    expect((await server.request('DELETE', `/api/user/folders/${archive}`, { token })).status).toBe(200);
    // Emptied: the entries still name what was there.
    expect((await server.request('DELETE', '/api/trash', { token })).status).toBe(204);

    expect(await entries(token, 'rename')).toEqual([
      { item: 'file', from: 'draft.txt', name: 'final.txt' },
      { item: 'folder', from: 'Drafts', name: 'Done' },
    ]);
    expect(await entries(token, 'move')).toEqual([
      { item: 'file', name: 'final.txt' },
      { item: 'folder', name: 'Done' },
    ]);
    expect(await entries(token, 'delete')).toEqual([
      { item: 'file', name: 'final.txt' },
      { item: 'folder', name: 'Archive' },
    ]);
  });

  it('records nothing for a refused change: a taken name, an item of someone else or one already in Trash', async () => {
    const { token } = await createUser(server);
    const other = await createUser(server);
    const file = (await uploadFile(server, token, 'a', { name: 'a.txt' })).body.file.id as string;
    await uploadFile(server, token, 'b', { name: 'b.txt' });
    expect((await server.request('PATCH', `/api/files/${file}`, { token, body: { name: 'b.txt' } })).status).toBe(409);
    expect((await server.request('DELETE', `/api/files/${file}`, { token: other.token })).status).toBe(404);
    expect((await server.request('DELETE', `/api/files/${file}`, { token })).status).toBe(200);
    expect((await server.request('DELETE', `/api/files/${file}`, { token })).status).toBe(404);
    expect(await entries(token, 'rename')).toEqual([]);
    expect(await entries(token, 'delete')).toEqual([{ item: 'file', name: 'a.txt' }]);
    expect(await entries(other.token, 'delete')).toEqual([]);
  });
});
