import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from './helpers/factories.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { assertStorageConsistent, downloadFile, uploadFile } from './helpers/uploads.ts';

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
  await server.request('PUT', '/api/user/settings', { token, body: { ...body.settings, storage: { ...body.settings.storage, autoDelete, deleteAfterDays } } });
}

describe('Trash retention', () => {
  it('purges items deleteAfterDays after deletion when auto-delete is on, and keeps the rest', async () => {
    const keeper = await createUser(server);
    const sweeper = await createUser(server);
    await setRetention(sweeper.token, true, 7);

    const folder = (await server.request('POST', '/api/user/folders', { token: sweeper.token, body: { name: 'Old', parentId: null } })).body.folder;
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
    expect((await server.request('POST', '/api/trash/restore', { token: keeper.token, body: { type: 'file', id: kept.id } })).status).toBe(200);
  });
});
