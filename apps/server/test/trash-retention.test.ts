import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFolder, downloadFile, uploadFile } from '@cloudvault/test-support/drive';
import { withTablesRead } from './helpers/tables-read.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { assertStorageConsistent } from './helpers/storage-totals.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const DAY = 24 * 60 * 60 * 1000;

async function signIn(email: string, password: string): Promise<string> {
  return (await server.request('POST', '/api/auth/login', { body: { email, password } })).body.token;
}

async function setRetention(token: string, autoDelete: boolean, deleteAfterDays: number) {
  const { body } = await server.request('GET', '/api/user/settings', { token });
  await server.request('PUT', '/api/user/settings', {
    token,
    body: { ...body.settings, storage: { ...body.settings.storage, autoDelete, deleteAfterDays } },
  });
}

describe('Trash retention', () => {
  it('purges items deleteAfterDays after deletion when auto-delete is on, and keeps the rest', async () => {
    const keeper = await createUser(server);
    const sweeper = await createUser(server);
    await setRetention(sweeper.token, true, 7);

    const folder = await createFolder(server, sweeper.token, 'Old');
    const inFolder = (await uploadFile(server, sweeper.token, randomBytes(4000), { name: 'in.bin', folderId: folder.id })).body.file;
    const later = (await uploadFile(server, sweeper.token, randomBytes(1000), { name: 'later.bin' })).body.file;
    const kept = (await uploadFile(server, keeper.token, randomBytes(500), { name: 'kept.bin' })).body.file;

    const deletedAt = server.clock.now();
    await server.request('DELETE', `/api/user/folders/${folder.id}`, { token: sweeper.token });
    await server.request('DELETE', `/api/files/${kept.id}`, { token: keeper.token });
    server.clock.advance(3 * DAY);
    await server.request('DELETE', `/api/files/${later.id}`, { token: sweeper.token });

    const listed = await server.request('GET', '/api/trash', { token: sweeper.token });
    expect(listed.body.folders[0].purgeAt).toBe(new Date(deletedAt.getTime() + 7 * DAY).toISOString());
    expect((await server.request('GET', '/api/trash', { token: keeper.token })).body.files[0].purgeAt).toBeNull();

    server.clock.advance(4 * DAY - 60_000);
    expect(await server.container.trash.purgeExpired()).toEqual({ users: 1, files: 0 });
    server.clock.advance(2 * 60_000);
    expect(await server.container.trash.purgeExpired()).toEqual({ users: 1, files: 1 });
    // A week has passed: the sessions of a week ago have expired.
    sweeper.token = await signIn(sweeper.email, sweeper.password);
    keeper.token = await signIn(keeper.email, keeper.password);

    const after = await server.request('GET', '/api/trash', { token: sweeper.token });
    expect(after.body.folders).toEqual([]);
    expect(after.body.files.map((file: { id: string }) => file.id)).toEqual([later.id]);
    const restore = await server.request('POST', '/api/trash/restore', { token: sweeper.token, body: { type: 'file', id: inFolder.id } });
    expect(restore.status).toBe(404);
    expect(await assertStorageConsistent(server, sweeper.user.id)).toEqual({ used: 1000, sum: 1000 });
    expect((await server.request('GET', '/api/trash', { token: keeper.token })).body.files).toHaveLength(1);

    server.clock.advance(3 * DAY);
    await server.container.trash.purgeExpired();
    expect((await server.request('GET', '/api/trash', { token: sweeper.token })).body.files).toEqual([]);
    expect(await assertStorageConsistent(server, sweeper.user.id)).toEqual({ used: 0, sum: 0 });
    expect((await downloadFile(server, keeper.token, kept.id)).status).toBe(404);
    expect((await server.request('POST', '/api/trash/restore', { token: keeper.token, body: { type: 'file', id: kept.id } })).status).toBe(
      200,
    );
  });
});

describe('emptying a large Trash', () => {
  // Over 600 uploads: minutes on a loaded machine with PostgreSQL, seconds alone.
  it('deletes rows and bytes a page at a time, freeing every byte and the storage they counted', { timeout: 180_000 }, async () => {
    const { token, user } = await createUser(server);
    const top = (await createFolder(server, token, 'Many')).id;
    const inner = (await createFolder(server, token, 'Inner', top)).id;
    // More files than one page (500) of the purge takes, some of them one level down; three
    // at a time, the Free plan's concurrent uploads.
    for (let index = 0; index < 621; index += 3) {
      const uploads = await Promise.all(
        [0, 1, 2].map((offset) =>
          uploadFile(server, token, `file ${index + offset}`, { name: `f${index + offset}.txt`, folderId: offset === 0 ? inner : top }),
        ),
      );
      expect(uploads.map((upload) => upload.status)).toEqual([201, 201, 201]);
    }
    const loose = (await uploadFile(server, token, 'loose', { name: 'loose.txt' })).body.file.id as string;
    await server.request('DELETE', `/api/files/${loose}`, { token });
    await server.request('DELETE', `/api/user/folders/${top}`, { token });

    const db = server.container.database.db;
    const rowsLeft = async () =>
      Number(
        (
          await db
            .selectFrom('files')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .where('user_id', '=', user.id)
            .executeTakeFirstOrThrow()
        ).count,
      );
    const blobs = server.container.blobs;
    const deleteBlob = blobs.delete.bind(blobs);
    // Rows still waiting when the first bytes go: the rows were deleted a page at a time, not all at once.
    const rowsAtFirstBlob: number[] = [];
    const deletedKeys = new Set<string>();
    const spy = vi.spyOn(blobs, 'delete').mockImplementation(async (key) => {
      if (deletedKeys.size === 0) rowsAtFirstBlob.push(await rowsLeft());
      deletedKeys.add(key);
      return deleteBlob(key);
    });
    try {
      expect((await server.request('DELETE', '/api/trash', { token })).status).toBe(204);
    } finally {
      spy.mockRestore();
    }
    expect(deletedKeys.size).toBe(622);
    expect(rowsAtFirstBlob[0]).toBeGreaterThan(0);
    expect(rowsAtFirstBlob[0]).toBeLessThan(622);
    expect(await rowsLeft()).toBe(0);
    expect(await db.selectFrom('folders').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    expect(await assertStorageConsistent(server, user.id)).toEqual({ used: 0, sum: 0 });
    expect((await server.request('GET', '/api/trash', { token })).body).toEqual({ folders: [], files: [] });
  });
});

describe('listing a large Trash', () => {
  it('answers every item in one JSON body, read from the database a page of 500 at a time', { timeout: 180_000 }, async () => {
    const { token } = await createUser(server);
    const ids: string[] = [];
    for (let index = 0; index < 501; index += 10) {
      const created = await Promise.all(
        Array.from({ length: Math.min(10, 501 - index) }, (_, offset) => createFolder(server, token, `Folder ${index + offset}`)),
      );
      ids.push(...created.map((folder) => folder.id));
    }
    // All deleted in the same instant: pages must still neither skip nor repeat one.
    for (const id of ids) expect((await server.request('DELETE', `/api/user/folders/${id}`, { token })).status).toBe(200);
    const file = (await uploadFile(server, token, 'bytes', { name: 'gone.txt' })).body.file.id as string;
    await server.request('DELETE', `/api/files/${file}`, { token });

    const { result: response, tablesRead } = await withTablesRead(server, () => server.request('GET', '/api/trash', { token }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.body.folders.map((folder: { id: string }) => folder.id).sort()).toEqual([...ids].sort());
    expect(response.body.folders[0]).toEqual({
      id: expect.any(String),
      name: expect.stringMatching(/^Folder \d+$/),
      parentId: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      deletedAt: server.clock.now().toISOString(),
      purgeAt: null,
    });
    expect(response.body.files).toEqual([
      expect.objectContaining({ id: file, originalName: 'gone.txt', deletedAt: server.clock.now().toISOString(), purgeAt: null }),
    ]);
    expect(tablesRead.filter((table) => table === 'folders')).toHaveLength(2);
  });
});
