import { formatBytes } from '@cloudvault/contract/format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFolder, uploadFile } from '@cloudvault/test-support/drive';
import { presentFile } from '../src/modules/files/files.presenter.ts';
import { createFilesRepository } from '../src/modules/files/files.repository.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const KiB = 1024;
/** Unit boundaries, values that round up into the next unit, exact half-hundredths (ties) and large sizes. */
const SIZES = [
  0,
  1,
  999,
  1023,
  KiB,
  KiB + 1,
  1536,
  1552,
  1541,
  10 * KiB,
  100 * KiB + 5,
  KiB ** 2 - 6,
  KiB ** 2 - 5,
  KiB ** 2 - 1,
  KiB ** 2,
  // size * 100 / 1024 ends in exactly half a hundredth (1.125, 1.375, …): ties round up.
  ...Array.from({ length: 8 }, (_, i) => 1152 + 256 * i),
  5 * KiB ** 2 + 123_456,
  KiB ** 3 - 1,
  KiB ** 3,
  3.5 * KiB ** 3,
  KiB ** 4 - 1,
  KiB ** 4,
  7 * KiB ** 4 + 99,
  2 ** 53 - 1,
];

describe('listing entries kept by the database', () => {
  it("keeps each file's stored listing entry current through every kind of update, in name order", async () => {
    const { token, user } = await createUser(server);
    const folder = await createFolder(server, token, 'Entries');
    for (const name of ['b.txt', 'A.txt', 'c "quoted" ünï.txt']) {
      expect((await uploadFile(server, token, Buffer.from(name), { name, type: 'text/plain', folderId: folder.id })).status).toBe(201);
    }
    const { db } = server.container.database;
    const files = createFilesRepository(db, server.container.database.dialect);
    const listing = async (folderId: string | null) => JSON.parse(String(await files.listOwnLiveJson(user.id, folderId)));
    const expected = async (folderId: string | null) =>
      (await db.selectFrom('files').selectAll().where('user_id', '=', user.id).where('deleted_at', 'is', null).execute())
        .filter((row) => row.folder_id === folderId)
        .sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1))
        .map(presentFile);
    expect((await listing(folder.id)).map((file: { originalName: string }) => file.originalName)).toEqual([
      'A.txt',
      'b.txt',
      'c "quoted" ünï.txt',
    ]);
    expect(await listing(folder.id)).toEqual(await expected(folder.id));

    const [first] = await expected(folder.id);
    const changes = [
      // Written straight to the row (with its key, as the repositories write it): JSON escaping
      // of a backslash and quotes, which upload names cannot carry.
      { name: 'renamed \\ "q".md', name_key: 'renamed \\ "q".md' },
      { mimetype: 'text/markdown' },
      // Every preview kind, and none: the SQL of migration 16 against previewOf.
      ...[
        'image/jpeg',
        'image/svg+xml',
        'image/bmp',
        'application/pdf',
        'video/webm',
        'audio/ogg',
        'application/json',
        'application/zip',
      ].map((mimetype) => ({ mimetype })),
      // A new or restored version's bytes: a new contentTag.
      { sha256: 'f'.repeat(64) },
      { size: 5 * 1024 ** 3 + 7 },
      { updated_at: '2027-01-02T03:04:05.678Z' },
      { folder_id: null },
    ];
    for (const change of changes) {
      await db.updateTable('files').set(change).where('id', '=', first!.id).execute();
      expect(await listing(folder.id)).toEqual(await expected(folder.id));
      expect(await listing(null)).toEqual(await expected(null));
    }
    expect((await listing(null)).map((file: { sizeFormatted: string }) => file.sizeFormatted)).toEqual(['5 GB']);
    expect((await listing(null))[0]).toMatchObject({ preview: null, contentTag: 'f'.repeat(16) });
  });

  it("answers no listing for a folder that is missing, in Trash or someone else's, and [] for an empty one", async () => {
    const owner = await createUser(server);
    const other = await createUser(server);
    const empty = await createFolder(server, owner.token, 'Empty');
    const trashed = await createFolder(server, owner.token, 'Trashed');
    expect((await server.request('DELETE', `/api/user/folders/${trashed.id}`, { token: owner.token })).status).toBeLessThan(300);
    const files = createFilesRepository(server.container.database.db, server.container.database.dialect);
    expect(String(await files.listOwnLiveJson(owner.user.id, empty.id, { before: '{"files":', after: '}' }))).toBe('{"files":[]}');
    expect(await files.listOwnLiveJson(owner.user.id, 'no-such-folder')).toBeNull();
    expect(await files.listOwnLiveJson(owner.user.id, trashed.id)).toBeNull();
    expect(await files.listOwnLiveJson(other.user.id, empty.id)).toBeNull();
    expect(String(await files.listOwnLiveJson(other.user.id, null))).toBe('[]');
  });

  it('answers a listing again only until the folder changes, through the API or straight in the database', async () => {
    const { token } = await createUser(server);
    const folder = await createFolder(server, token, 'Kept');
    const names = async () =>
      (await server.request('GET', `/api/files?folderId=${folder.id}`, { token })).body.files.map(
        (file: { originalName: string }) => file.originalName,
      );
    const { body } = await uploadFile(server, token, Buffer.from('one'), { name: 'one.txt', folderId: folder.id });
    expect(await names()).toEqual(['one.txt']);
    expect(await names()).toEqual(['one.txt']);
    await server.request('PATCH', `/api/files/${body.file.id}`, { token, body: { name: 'renamed.txt' } });
    expect(await names()).toEqual(['renamed.txt']);
    await server.container.database.db.updateTable('files').set({ name: 'direct.txt' }).where('id', '=', body.file.id).execute();
    expect(await names()).toEqual(['direct.txt']);
    await uploadFile(server, token, Buffer.from('two'), { name: 'two.txt', folderId: folder.id });
    expect(await names()).toEqual(['direct.txt', 'two.txt']);
  });

  it('formats sizes in the stored entry exactly as formatBytes does', async () => {
    const { token, user } = await createUser(server);
    const { body } = await uploadFile(server, token, Buffer.from('x'), { name: 'sized.bin' });
    const { db, dialect } = server.container.database;
    const files = createFilesRepository(db, dialect);
    for (const size of SIZES) {
      await db.updateTable('files').set({ size }).where('id', '=', body.file.id).execute();
      const [entry] = JSON.parse(String(await files.listOwnLiveJson(user.id, null)));
      expect(`${size}: ${entry.sizeFormatted}`).toBe(`${size}: ${formatBytes(size)}`);
    }
  });
});
