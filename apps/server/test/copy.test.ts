import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFile, createFolder, downloadFile, listFiles, listFolders } from '@cloudvault/test-support/drive';
import { THUMBNAIL_JOB } from '../src/background-jobs.ts';
import { assertStorageConsistent } from './helpers/storage-totals.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

// Server-side copy (docs/decisions/0043-server-side-copy.md) on whichever store and
// database the run uses: the bytes, the quota, the names and the tree over HTTP.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function storageUsed(token: string): Promise<{ storageUsed: number; storageLimit: number }> {
  return (await server.request('GET', '/api/user/dashboard', { token })).body.storageInfo;
}

/** Every stored blob's key, through the server's own store. */
async function storedKeys(): Promise<string[]> {
  const keys: string[] = [];
  for await (const page of server.container.blobs.list()) keys.push(...page.map((blob) => blob.key));
  return keys.sort();
}

describe('copying a file', () => {
  it('makes a new file with the same bytes and hash, counted against the quota, under "name (1)" beside the original', async () => {
    const { token, user } = await createUser(server);
    const bytes = randomBytes(300_000);
    const original = await createFile(server, token, bytes, { name: 'report.pdf' });
    const before = await storageUsed(token);

    const answer = await server.request('POST', `/api/files/${original.id}/copy`, { token, body: { folderId: null } });
    expect(answer.status).toBe(201);
    const copy = answer.body.file;
    expect(copy).toMatchObject({ originalName: 'report (1).pdf', size: bytes.length, folderId: null, contentTag: original.contentTag });
    expect(copy.id).not.toBe(original.id);

    const downloaded = await downloadFile(server, token, copy.id);
    expect(sha256(downloaded.bytes)).toBe(sha256(bytes));
    expect((await storageUsed(token)).storageUsed).toBe(before.storageUsed + bytes.length);
    const versions = await server.container.database.db.selectFrom('file_versions').select('id').where('file_id', '=', copy.id).execute();
    expect(versions).toEqual([]);

    const again = await server.request('POST', `/api/files/${original.id}/copy`, { token, body: { folderId: null } });
    expect(again.body.file.originalName).toBe('report (2).pdf');
    const folder = await createFolder(server, token, 'Elsewhere');
    const named = await server.request('POST', `/api/files/${original.id}/copy`, {
      token,
      body: { folderId: folder.id, name: 'kept.pdf' },
    });
    expect(named.body.file).toMatchObject({ originalName: 'kept.pdf', folderId: folder.id });
    await assertStorageConsistent(server, user.id);
  });

  it('is refused with 507 before anything is written when it would not fit', async () => {
    const { token, user } = await createUser(server);
    const original = await createFile(server, token, randomBytes(1000), { name: 'big.bin' });
    const { storageLimit } = await storageUsed(token);
    await server.container.database.db
      .updateTable('users')
      .set({ storage_used: storageLimit - 10 })
      .where('id', '=', user.id)
      .execute();
    const keysBefore = await storedKeys();

    const refused = await server.request('POST', `/api/files/${original.id}/copy`, { token, body: { folderId: null } });
    expect(refused.status).toBe(507);
    expect(refused.body).toMatchObject({ code: 'QUOTA_EXCEEDED', error: expect.stringMatching(/^Not enough storage/) });
    expect(await storedKeys()).toEqual(keysBefore);
    expect(await listFiles(server, token)).toHaveLength(1);
    expect((await storageUsed(token)).storageUsed).toBe(storageLimit - 10);
  });

  it("answers 404 for another user's file or destination folder", async () => {
    const owner = await createUser(server);
    const other = await createUser(server);
    const file = await createFile(server, owner.token, 'mine', { name: 'mine.txt' });
    const folder = await createFolder(server, owner.token, 'Mine');
    const theirs = await createFile(server, other.token, 'theirs', { name: 'theirs.txt' });

    const foreignFile = await server.request('POST', `/api/files/${file.id}/copy`, { token: other.token, body: { folderId: null } });
    expect(foreignFile).toMatchObject({ status: 404, body: { code: 'FILE_NOT_FOUND' } });
    const foreignFolder = await server.request('POST', `/api/files/${theirs.id}/copy`, {
      token: other.token,
      body: { folderId: folder.id },
    });
    expect(foreignFolder).toMatchObject({ status: 404, body: { code: 'FOLDER_NOT_FOUND' } });
    const intoTheirs = await server.request('POST', `/api/user/folders/${folder.id}/copy`, {
      token: other.token,
      body: { parentId: null },
    });
    expect(intoTheirs).toMatchObject({ status: 404, body: { code: 'FOLDER_NOT_FOUND' } });
    expect(await listFiles(server, other.token)).toHaveLength(1);
  });
});

describe('copying a folder', () => {
  it('copies the tree, empty sub-folders included, with every file byte for byte, counting the whole size', async () => {
    const { token, user } = await createUser(server);
    const top = await createFolder(server, token, 'Photos');
    const trip = await createFolder(server, token, 'Trip', top.id);
    const empty = await createFolder(server, token, 'Empty', trip.id);
    const contents = { a: randomBytes(20_000), b: randomBytes(5), c: randomBytes(70_000) };
    await createFile(server, token, contents.a, { name: 'a.jpg', folderId: top.id });
    await createFile(server, token, contents.b, { name: 'b.jpg', folderId: trip.id });
    await createFile(server, token, contents.c, { name: 'c.jpg', folderId: trip.id });
    const before = await storageUsed(token);

    const answer = await server.request('POST', `/api/user/folders/${top.id}/copy`, { token, body: { parentId: null } });
    expect(answer.status).toBe(201);
    const copy = answer.body.folder;
    expect(copy).toMatchObject({ name: 'Photos (1)', parentId: null });

    const [tripCopy] = await listFolders(server, token, copy.id);
    expect(tripCopy).toMatchObject({ name: 'Trip' });
    expect(tripCopy!.id).not.toBe(trip.id);
    const [emptyCopy] = await listFolders(server, token, tripCopy!.id);
    expect(emptyCopy).toMatchObject({ name: 'Empty' });
    expect(emptyCopy!.id).not.toBe(empty.id);
    expect(await listFolders(server, token, emptyCopy!.id)).toEqual([]);
    const files = [...(await listFiles(server, token, copy.id)), ...(await listFiles(server, token, tripCopy!.id))];
    expect(files.map((file) => file.originalName).sort()).toEqual(['a.jpg', 'b.jpg', 'c.jpg']);
    for (const file of files) {
      const expected = contents[file.originalName[0] as 'a' | 'b' | 'c'];
      expect(sha256((await downloadFile(server, token, file.id)).bytes)).toBe(sha256(expected));
    }
    const total = contents.a.length + contents.b.length + contents.c.length;
    expect((await storageUsed(token)).storageUsed).toBe(before.storageUsed + total);
    await assertStorageConsistent(server, user.id);

    const inside = await server.request('POST', `/api/user/folders/${trip.id}/copy`, {
      token,
      body: { parentId: top.id, name: 'Trip again' },
    });
    expect(inside.body.folder).toMatchObject({ name: 'Trip again', parentId: top.id });
  });

  it('refuses with 400 a copy into the folder itself or one of its sub-folders', async () => {
    const { token } = await createUser(server);
    const top = await createFolder(server, token, 'Top');
    const child = await createFolder(server, token, 'Child', top.id);
    for (const parentId of [top.id, child.id]) {
      const refused = await server.request('POST', `/api/user/folders/${top.id}/copy`, { token, body: { parentId } });
      expect(refused).toMatchObject({ status: 400, body: { code: 'COPY_INTO_ITSELF' } });
    }
    expect(await listFolders(server, token, child.id)).toEqual([]);
  });

  it('is refused with 507 before any blob is copied when the tree would not fit', async () => {
    const { token, user } = await createUser(server);
    const top = await createFolder(server, token, 'Full');
    await createFile(server, token, randomBytes(600), { name: 'one.bin', folderId: top.id });
    await createFile(server, token, randomBytes(600), { name: 'two.bin', folderId: top.id });
    const { storageLimit } = await storageUsed(token);
    // Room for one of the files, not for both.
    await server.container.database.db
      .updateTable('users')
      .set({ storage_used: storageLimit - 1000 })
      .where('id', '=', user.id)
      .execute();
    const keysBefore = await storedKeys();

    const refused = await server.request('POST', `/api/user/folders/${top.id}/copy`, { token, body: { parentId: null } });
    expect(refused).toMatchObject({ status: 507, body: { code: 'QUOTA_EXCEEDED' } });
    expect(await storedKeys()).toEqual(keysBefore);
    expect(await listFolders(server, token)).toHaveLength(1);
  });
});

describe('after a copy is kept', () => {
  /** The files whose thumbnail job was queued while `work` ran (the runner only queues in tests; pg-boss is not started). */
  async function thumbnailsQueuedBy(work: () => Promise<unknown>): Promise<string[]> {
    const { jobs } = server.container;
    const enqueue = jobs.enqueue;
    const queued: string[] = [];
    jobs.enqueue = async (name, data, options) => {
      if (name === THUMBNAIL_JOB) queued.push((data as { fileId: string }).fileId);
      return enqueue.call(jobs, name, data, options).catch(() => {});
    };
    try {
      await work();
    } finally {
      jobs.enqueue = enqueue;
    }
    return queued;
  }
  const copyEntries = async (token: string) =>
    (
      (await server.request('GET', '/api/user/overview', { token })).body.activity as Array<{ type: string; details: { item: string } }>
    ).filter((entry) => entry.type === 'copy');

  it('queues the thumbnails of its images at once, records one activity entry per copy and alerts at 80 %', async () => {
    const { token, user } = await createUser(server);
    const photo = await createFile(server, token, randomBytes(1000), { name: 'photo.png' });
    const album = await createFolder(server, token, 'Album');
    await createFile(server, token, randomBytes(100), { name: 'one.jpg', folderId: album.id });
    await createFile(server, token, randomBytes(100), { name: 'two.png', folderId: album.id });
    await createFile(server, token, 'notes', { name: 'notes.txt', folderId: album.id });

    let copy: { body: { file: { id: string }; folder: { id: string } } } | undefined;
    const forFile = await thumbnailsQueuedBy(async () => {
      copy = await server.request('POST', `/api/files/${photo.id}/copy`, { token, body: { folderId: null } });
    });
    expect(forFile).toEqual([copy!.body.file.id]);
    const forFolder = await thumbnailsQueuedBy(async () => {
      copy = await server.request('POST', `/api/user/folders/${album.id}/copy`, { token, body: { parentId: null } });
    });
    // The two images of the copy; the text file has no thumbnail.
    const images = (await listFiles(server, token, copy!.body.folder.id)).filter((file) => file.preview === 'image');
    expect(forFolder.sort()).toEqual(images.map((file) => file.id).sort());
    expect(images).toHaveLength(2);

    const entries = await copyEntries(token);
    expect(entries).toHaveLength(2);
    expect(Object.fromEntries(entries.map((entry) => [entry.details.item, entry.details]))).toEqual({
      folder: { item: 'folder', name: 'Album (1)', size: '205 Bytes', files: '3' },
      file: { item: 'file', name: 'photo (1).png', size: '1000 Bytes', files: '1' },
    });

    // Just under 80 % of the plan: the next copy crosses it.
    const { storageLimit, storageUsed: used } = await storageUsed(token);
    const justUnder = Math.ceil(storageLimit * 0.8) - 500;
    await server.container.database.db.updateTable('users').set({ storage_used: justUnder }).where('id', '=', user.id).execute();
    expect((await server.request('POST', `/api/files/${photo.id}/copy`, { token, body: { folderId: null } })).status).toBe(201);
    const bell = await server.request('GET', '/api/notifications', { token });
    expect(bell.body.notifications).toMatchObject([{ type: 'storage_alert', details: { percent: '80' } }]);
    await server.container.database.db.updateTable('users').set({ storage_used: used }).where('id', '=', user.id).execute();
  });
});
