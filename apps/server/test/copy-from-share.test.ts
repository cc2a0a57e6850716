import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFile, createFolder, downloadFile, listFiles, listFolders } from '@cloudvault/test-support/drive';
import { createVerifiedUser } from './helpers/factories.ts';
import { assertStorageConsistent } from './helpers/storage-totals.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

// Copy out of a folder shared privately with the caller (docs/decisions/0047-copy-out-of-a-share.md):
// the same copy routes, the source readable through the share, the copy the caller's.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function storageInfo(token: string): Promise<{ storageUsed: number; storageLimit: number }> {
  return (await server.request('GET', '/api/user/dashboard', { token })).body.storageInfo;
}

/** Every stored blob's key, through the server's own store. */
async function storedKeys(): Promise<string[]> {
  const keys: string[] = [];
  for await (const page of server.container.blobs.list()) keys.push(...page.map((blob) => blob.key));
  return keys.sort();
}

/** The owner's rows, as a fingerprint that changes when anything of theirs does. */
async function ownersRows(ownerId: string) {
  const { db } = server.container.database;
  const files = await db.selectFrom('files').selectAll().where('user_id', '=', ownerId).orderBy('id').execute();
  const folders = await db.selectFrom('folders').selectAll().where('user_id', '=', ownerId).orderBy('id').execute();
  const user = await db.selectFrom('users').select('storage_used').where('id', '=', ownerId).executeTakeFirstOrThrow();
  return { files, folders, storageUsed: Number(user.storage_used) };
}

/**
 * An owner's "Shared" folder (shared privately with a verified recipient) holding a file and
 * a sub-folder "Album" with two files and an empty folder; "Private" beside it is not shared.
 */
async function sharedTree() {
  const owner = await createUser(server);
  const recipient = await createVerifiedUser(server);
  const shared = await createFolder(server, owner.token, 'Shared');
  const album = await createFolder(server, owner.token, 'Album', shared.id);
  await createFolder(server, owner.token, 'Empty', album.id);
  const privateFolder = await createFolder(server, owner.token, 'Private');
  const bytes = { top: randomBytes(40_000), one: randomBytes(30_000), two: randomBytes(12_345), secret: randomBytes(100) };
  const file = await createFile(server, owner.token, bytes.top, { name: 'notes.txt', folderId: shared.id });
  await createFile(server, owner.token, bytes.one, { name: 'one.jpg', folderId: album.id });
  await createFile(server, owner.token, bytes.two, { name: 'two.jpg', folderId: album.id });
  const secret = await createFile(server, owner.token, bytes.secret, { name: 'secret.txt', folderId: privateFolder.id });
  const share = await server.request('POST', `/api/user/folders/${shared.id}/share`, {
    token: owner.token,
    body: { shareType: 'private', email: recipient.email },
  });
  expect(share.status).toBe(200);
  return { owner, recipient, shared, album, privateFolder, file, secret, bytes, shareId: share.body.share.id as string };
}

describe('copying out of a folder shared with the caller', () => {
  it("copies a file and a sub-folder into the caller's drive byte for byte, counted against the caller, the owner's untouched", async () => {
    const tree = await sharedTree();
    const { recipient, owner } = tree;
    const ownerBefore = await ownersRows(owner.user.id);
    const before = await storageInfo(recipient.token);
    const mine = await createFolder(server, recipient.token, 'Mine');

    const fileCopy = await server.request('POST', `/api/files/${tree.file.id}/copy`, {
      token: recipient.token,
      body: { folderId: mine.id },
    });
    expect(fileCopy.status).toBe(201);
    expect(fileCopy.body.file).toMatchObject({ originalName: 'notes.txt', folderId: mine.id, size: tree.bytes.top.length });
    expect(sha256((await downloadFile(server, recipient.token, fileCopy.body.file.id)).bytes)).toBe(sha256(tree.bytes.top));

    const folderCopy = await server.request('POST', `/api/user/folders/${tree.album.id}/copy`, {
      token: recipient.token,
      body: { parentId: null },
    });
    expect(folderCopy.status).toBe(201);
    expect(folderCopy.body.folder).toMatchObject({ name: 'Album', parentId: null });
    const copied = await listFiles(server, recipient.token, folderCopy.body.folder.id);
    expect(copied.map((file) => file.originalName).sort()).toEqual(['one.jpg', 'two.jpg']);
    for (const file of copied) {
      const expected = file.originalName === 'one.jpg' ? tree.bytes.one : tree.bytes.two;
      expect(sha256((await downloadFile(server, recipient.token, file.id)).bytes)).toBe(sha256(expected));
    }
    expect((await listFolders(server, recipient.token, folderCopy.body.folder.id)).map((folder) => folder.name)).toEqual(['Empty']);

    const copiedBytes = tree.bytes.top.length + tree.bytes.one.length + tree.bytes.two.length;
    expect((await storageInfo(recipient.token)).storageUsed).toBe(before.storageUsed + copiedBytes);
    expect(await ownersRows(owner.user.id)).toEqual(ownerBefore);
    await assertStorageConsistent(server, recipient.user.id);
    await assertStorageConsistent(server, owner.user.id);

    // The whole shared folder too; the copy is the caller's to change.
    const whole = await server.request('POST', `/api/user/folders/${tree.shared.id}/copy`, {
      token: recipient.token,
      body: { parentId: mine.id, name: 'Kept' },
    });
    expect(whole.body.folder).toMatchObject({ name: 'Kept', parentId: mine.id });
    const renamed = await server.request('PATCH', `/api/user/folders/${whole.body.folder.id}`, {
      token: recipient.token,
      body: { name: 'Renamed' },
    });
    expect(renamed.status).toBe(200);
    expect(await ownersRows(owner.user.id)).toEqual(ownerBefore);
  });

  it("copies a file shared with the caller on its own, wherever it lives in the owner's drive", async () => {
    const owner = await createUser(server);
    const recipient = await createVerifiedUser(server);
    const bytes = randomBytes(5_000);
    const file = await createFile(server, owner.token, bytes, { name: 'alone.pdf' });
    const shared = await server.request('POST', `/api/files/${file.id}/share`, {
      token: owner.token,
      body: { shareType: 'private', email: recipient.email },
    });
    expect(shared.status).toBe(200);

    const copy = await server.request('POST', `/api/files/${file.id}/copy`, { token: recipient.token, body: { folderId: null } });
    expect(copy.status).toBe(201);
    expect(sha256((await downloadFile(server, recipient.token, copy.body.file.id)).bytes)).toBe(sha256(bytes));
    expect((await storageInfo(recipient.token)).storageUsed).toBe(bytes.length);
  });

  it("is refused with 507 when the copy would not fit the caller's quota, leaving nothing", async () => {
    const tree = await sharedTree();
    const { recipient, owner } = tree;
    const ownerBefore = await ownersRows(owner.user.id);
    const { storageLimit } = await storageInfo(recipient.token);
    // Room for one file of the album, not for both.
    await server.container.database.db
      .updateTable('users')
      .set({ storage_used: storageLimit - 35_000 })
      .where('id', '=', recipient.user.id)
      .execute();
    const keysBefore = await storedKeys();

    const folder = await server.request('POST', `/api/user/folders/${tree.album.id}/copy`, {
      token: recipient.token,
      body: { parentId: null },
    });
    expect(folder).toMatchObject({ status: 507, body: { code: 'QUOTA_EXCEEDED' } });
    const file = await server.request('POST', `/api/files/${tree.file.id}/copy`, { token: recipient.token, body: { folderId: null } });
    expect(file).toMatchObject({ status: 507, body: { code: 'QUOTA_EXCEEDED' } });

    expect(await storedKeys()).toEqual(keysBefore);
    expect(await listFolders(server, recipient.token)).toEqual([]);
    expect(await listFiles(server, recipient.token)).toEqual([]);
    expect((await storageInfo(recipient.token)).storageUsed).toBe(storageLimit - 35_000);
    expect(await ownersRows(owner.user.id)).toEqual(ownerBefore);
  });

  it('answers 404 for an item not shared with the caller, or into a folder that is not their own', async () => {
    const tree = await sharedTree();
    const { recipient } = tree;
    const stranger = await createVerifiedUser(server);
    const keysBefore = await storedKeys();

    const notShared = await server.request('POST', `/api/files/${tree.secret.id}/copy`, {
      token: recipient.token,
      body: { folderId: null },
    });
    expect(notShared).toMatchObject({ status: 404, body: { code: 'FILE_NOT_FOUND' } });
    const notSharedFolder = await server.request('POST', `/api/user/folders/${tree.privateFolder.id}/copy`, {
      token: recipient.token,
      body: { parentId: null },
    });
    expect(notSharedFolder).toMatchObject({ status: 404, body: { code: 'FOLDER_NOT_FOUND' } });
    const notTheirs = await server.request('POST', `/api/files/${tree.file.id}/copy`, { token: stranger.token, body: { folderId: null } });
    expect(notTheirs).toMatchObject({ status: 404, body: { code: 'FILE_NOT_FOUND' } });
    // A viewer: a copy cannot be put into the shared folder they can read (docs/decisions/0061-share-roles.md).
    const intoShare = await server.request('POST', `/api/files/${tree.file.id}/copy`, {
      token: recipient.token,
      body: { folderId: tree.shared.id },
    });
    expect(intoShare).toMatchObject({ status: 403, body: { code: 'READ_ONLY_SHARE' } });

    expect(await storedKeys()).toEqual(keysBefore);
    expect(await listFiles(server, recipient.token)).toEqual([]);
    expect(await listFiles(server, stranger.token)).toEqual([]);
  });

  it('answers 404 once the share was revoked', async () => {
    const tree = await sharedTree();
    const { recipient, owner } = tree;
    const revoked = await server.request('DELETE', `/api/shares/${tree.shareId}`, { token: owner.token });
    expect(revoked.status).toBe(204);
    const keysBefore = await storedKeys();

    const file = await server.request('POST', `/api/files/${tree.file.id}/copy`, { token: recipient.token, body: { folderId: null } });
    expect(file).toMatchObject({ status: 404, body: { code: 'FILE_NOT_FOUND' } });
    const folder = await server.request('POST', `/api/user/folders/${tree.album.id}/copy`, {
      token: recipient.token,
      body: { parentId: null },
    });
    expect(folder).toMatchObject({ status: 404, body: { code: 'FOLDER_NOT_FOUND' } });
    expect(await storedKeys()).toEqual(keysBefore);
    expect(await listFolders(server, recipient.token)).toEqual([]);
  });
});
