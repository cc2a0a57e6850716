import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFile, createFolder, listFiles, listFolders } from '@cloudvault/test-support/drive';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

// Stars over HTTP (docs/api.md#starred): starring and unstarring, the Starred view and its
// pages, `starred` in every listing, and a star's life with its item's (Trash, purge).

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const star = (token: string, type: string, id: string) => server.request('PUT', `/api/starred/${type}/${id}`, { token });
const unstar = (token: string, type: string, id: string) => server.request('DELETE', `/api/starred/${type}/${id}`, { token });
const starred = async (token: string, query = '') => {
  const answer = await server.request('GET', `/api/starred${query}`, { token });
  expect(answer.status).toBe(200);
  return answer.body as {
    folders: Array<{ id: string; name: string; starred: boolean }>;
    files: Array<{ id: string; starred: boolean }>;
    nextCursor?: string | null;
  };
};
const starsInDatabase = async (userId: string) =>
  server.container.database.db.selectFrom('stars').select(['file_id', 'folder_id']).where('user_id', '=', userId).execute();

describe('starring', () => {
  it('stars files and folders idempotently, shows them newest star first, and unstars them idempotently', async () => {
    const { token } = await createUser(server);
    const folder = await createFolder(server, token, 'Projects');
    const first = await createFile(server, token, 'one', { name: 'one.txt' });
    const second = await createFile(server, token, 'two', { name: 'two.txt', folderId: folder.id });

    expect((await star(token, 'file', first.id)).status).toBe(204);
    server.clock.advance(1000);
    expect((await star(token, 'folder', folder.id)).status).toBe(204);
    server.clock.advance(1000);
    expect((await star(token, 'file', second.id)).status).toBe(204);
    // Again: nothing changes, not even the star's time.
    server.clock.advance(1000);
    expect((await star(token, 'file', first.id)).status).toBe(204);

    const view = await starred(token);
    expect(view.files.map((file) => file.id)).toEqual([second.id, first.id]);
    expect(view.files.every((file) => file.starred)).toBe(true);
    expect(view.folders).toMatchObject([{ id: folder.id, name: 'Projects', starred: true }]);

    expect((await unstar(token, 'file', first.id)).status).toBe(204);
    expect((await unstar(token, 'file', first.id)).status).toBe(204);
    expect((await starred(token)).files.map((file) => file.id)).toEqual([second.id]);
  });

  it("answers 404 for another user's item or one that does not exist, and 400 for a type that is neither", async () => {
    const owner = await createUser(server);
    const other = await createUser(server);
    const file = await createFile(server, owner.token, 'mine', { name: 'mine.txt' });
    const folder = await createFolder(server, owner.token, 'Mine');
    await star(owner.token, 'file', file.id);

    for (const answer of [
      await star(other.token, 'file', file.id),
      await star(other.token, 'folder', folder.id),
      await unstar(other.token, 'file', file.id),
      await star(owner.token, 'file', 'no-such-file'),
      // A folder's id is not a file's.
      await star(owner.token, 'file', folder.id),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.body.error).toMatch(/not found/);
    }
    const bad = await star(owner.token, 'photo', file.id);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toEqual(expect.any(String));
    expect(await starsInDatabase(owner.user.id)).toHaveLength(1);
    expect(await starsInDatabase(other.user.id)).toHaveLength(0);
  });
});

describe('starred in the listings', () => {
  it('marks each file and folder of a folder listing, a sorted page and a search', async () => {
    const { token } = await createUser(server);
    const parent = await createFolder(server, token, 'Parent');
    const [kept, plain] = [await createFolder(server, token, 'Kept', parent.id), await createFolder(server, token, 'Plain', parent.id)];
    const [a, b] = [
      await createFile(server, token, 'a', { name: 'alpha.txt', folderId: parent.id }),
      await createFile(server, token, 'b', { name: 'beta.txt', folderId: parent.id }),
    ];
    const rootFile = await createFile(server, token, 'r', { name: 'alpha root.txt' });
    await star(token, 'folder', kept.id);
    await star(token, 'file', b.id);
    await star(token, 'file', rootFile.id);

    // Only a starred item carries `starred` (true); the others leave it out.
    const marks = (items: Array<{ id: string; starred?: boolean }>) =>
      Object.fromEntries(items.map((item) => [item.id, item.starred === true]));
    expect(marks(await listFiles(server, token, parent.id))).toEqual({ [a.id]: false, [b.id]: true });
    expect(marks(await listFiles(server, token))).toEqual({ [rootFile.id]: true });
    expect(marks(await listFolders(server, token, parent.id))).toEqual({ [kept.id]: true, [plain.id]: false });

    const sortedFiles = await server.request('GET', `/api/files?folderId=${parent.id}&sort=size&order=desc&limit=10`, { token });
    expect(marks(sortedFiles.body.files)).toEqual({ [a.id]: false, [b.id]: true });
    const sortedFolders = await server.request('GET', `/api/user/folders?parentId=${parent.id}&sort=modified&limit=10`, { token });
    expect(marks(sortedFolders.body.folders)).toEqual({ [kept.id]: true, [plain.id]: false });
    expect((await listFolders(server, token, parent.id)).find((folder) => folder.id === plain.id)).not.toHaveProperty('starred');

    const search = await server.request('GET', '/api/files?search=alpha', { token });
    expect(marks(search.body.files)).toEqual({ [a.id]: false, [rootFile.id]: true });

    // Unstarred: the next listing says so (the cached listing is not served again).
    await unstar(token, 'file', b.id);
    expect(marks(await listFiles(server, token, parent.id))).toEqual({ [a.id]: false, [b.id]: false });
  });
});

describe('a star and its item', () => {
  it('is hidden while the item is in Trash, back when it is restored, and gone when it is deleted for good', async () => {
    const { token, user } = await createUser(server);
    const folder = await createFolder(server, token, 'Album');
    const inside = await createFile(server, token, 'photo', { name: 'photo.jpg', folderId: folder.id });
    const loose = await createFile(server, token, 'note', { name: 'note.txt' });
    await star(token, 'folder', folder.id);
    await star(token, 'file', inside.id);
    await star(token, 'file', loose.id);

    // The folder to Trash takes the file in it along: both hidden.
    expect((await server.request('DELETE', `/api/user/folders/${folder.id}`, { token })).status).toBe(200);
    let view = await starred(token);
    expect(view.folders).toEqual([]);
    expect(view.files.map((file) => file.id)).toEqual([loose.id]);

    const restored = await server.request('POST', '/api/trash/restore', { token, body: { type: 'folder', id: folder.id } });
    expect(restored.status).toBe(200);
    view = await starred(token);
    expect(view.folders.map((item) => item.id)).toEqual([folder.id]);
    expect(view.files.map((file) => file.id).sort()).toEqual([inside.id, loose.id].sort());

    await server.request('DELETE', `/api/files/${loose.id}`, { token });
    expect((await server.request('DELETE', `/api/trash/files/${loose.id}`, { token })).status).toBe(204);
    await server.request('DELETE', `/api/user/folders/${folder.id}`, { token });
    expect((await server.request('DELETE', '/api/trash', { token })).status).toBe(204);
    expect(await starsInDatabase(user.id)).toEqual([]);
    expect(await starred(token)).toEqual({ folders: [], files: [] });
  });
});

describe('pages of Starred', () => {
  it('pages folders and files together, newest star first, and refuses a bad limit or cursor', async () => {
    const { token } = await createUser(server);
    const ids: string[] = [];
    for (const name of ['a', 'b', 'c']) {
      const folder = await createFolder(server, token, `Folder ${name}`);
      const file = await createFile(server, token, name, { name: `${name}.txt` });
      await star(token, 'folder', folder.id);
      await star(token, 'file', file.id);
      server.clock.advance(1000);
      ids.push(folder.id, file.id);
    }
    const seen: string[] = [];
    let cursor: string | null | undefined;
    let pages = 0;
    do {
      const page = await starred(token, `?limit=4${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.folders.map((folder) => folder.id), ...page.files.map((file) => file.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(2);
    expect(seen.sort()).toEqual([...ids].sort());
    const newest = await starred(token, '?limit=2');
    expect([...newest.folders, ...newest.files].map((item) => item.id).sort()).toEqual(ids.slice(4).sort());

    for (const query of ['?limit=0', '?limit=many', '?limit=2&cursor=bm90LWEtY3Vyc29y']) {
      const refused = await server.request('GET', `/api/starred${query}`, { token });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toEqual(expect.any(String));
    }
  });
});
