import { createHash, randomBytes } from 'node:crypto';
import type { Change } from '@cloudvault/contract/changes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { changesMadeBy, latestCursor, changesSince } from '@cloudvault/test-support/changes';
import { createFile, createFolder, listFiles, listFolders } from '@cloudvault/test-support/drive';
import { davClientFor } from './helpers/dav-requests.ts';
import { createVerifiedUser } from './helpers/factories.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

// What the folder paths, copies and WebDAV's MKCOL, MOVE and COPY write to the change feed
// (docs/decisions/0060-change-journal.md): the entries, their order and the state each carries.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

async function patchFolder(token: string, id: string, body: Record<string, unknown>) {
  return server.request('PATCH', `/api/user/folders/${id}`, { token, body });
}

/** Fails unless every entry's parent is `top`'s parent or a folder created by an entry before it. */
function expectParentsFirst(changes: Change[], topParentId: string | null) {
  const seen = new Set<string | null>([topParentId]);
  for (const change of changes) {
    expect(seen.has(change.parentId), `${change.name} came before its parent`).toBe(true);
    if (change.kind === 'folder') seen.add(change.id);
  }
}

/** Every live folder and file below `folderId` (and the folder itself), as the API lists them. */
async function liveTreeIds(token: string, folderId: string): Promise<string[]> {
  const ids = [folderId];
  for (const file of await listFiles(server, token, folderId)) ids.push(file.id);
  for (const folder of await listFolders(server, token, folderId)) ids.push(...(await liveTreeIds(token, folder.id)));
  return ids;
}

/** "Top" holding "Album" holding "Deep" and "Empty"; a file at each of Top, Album and Deep. */
async function nestedTree(token: string) {
  const top = await createFolder(server, token, 'Top');
  const album = await createFolder(server, token, 'Album', top.id);
  const deep = await createFolder(server, token, 'Deep', album.id);
  await createFolder(server, token, 'Empty', album.id);
  const bytes = { top: randomBytes(1_000), album: randomBytes(2_345), deep: 'deep down' };
  await createFile(server, token, bytes.top, { name: 'top.bin', folderId: top.id });
  await createFile(server, token, bytes.album, { name: 'album.bin', folderId: album.id });
  await createFile(server, token, bytes.deep, { name: 'deep.txt', folderId: deep.id });
  const hashes = new Map([
    ['top.bin', { size: bytes.top.length, contentHash: sha256(bytes.top) }],
    ['album.bin', { size: bytes.album.length, contentHash: sha256(bytes.album) }],
    ['deep.txt', { size: bytes.deep.length, contentHash: sha256(bytes.deep) }],
  ]);
  return { top, album, deep, hashes };
}

/** Fails unless `changes` are `created` for exactly the copy's tree under `copyId`, parents first, files with their source's size and hash. */
async function expectCopyCreated(
  token: string,
  changes: Change[],
  copy: { id: string; parentId: string | null; name: string },
  hashes: Map<string, { size: number; contentHash: string }>,
) {
  expect(changes.every((change) => change.op === 'created' && change.shareId === undefined)).toBe(true);
  expect(changes[0]).toMatchObject({ kind: 'folder', id: copy.id, parentId: copy.parentId, name: copy.name });
  expectParentsFirst(changes, copy.parentId);
  expect(changes.map((change) => change.id).sort()).toEqual((await liveTreeIds(token, copy.id)).sort());
  const folderNames = changes.filter((change) => change.kind === 'folder').map((change) => change.name);
  expect(folderNames.sort()).toEqual([copy.name, 'Album', 'Deep', 'Empty'].sort());
  const files = changes.filter((change) => change.kind === 'file');
  expect(files.map((file) => file.name).sort()).toEqual([...hashes.keys()].sort());
  for (const file of files) expect(file).toMatchObject(hashes.get(file.name)!);
}

describe('folders in the change feed', () => {
  it('records a folder created at the root and one nested in it', async () => {
    const { token } = await createUser(server);
    let outer = '';
    let inner = '';
    const changes = await changesMadeBy(server, token, async () => {
      outer = (await createFolder(server, token, 'Outer')).id;
      inner = (await createFolder(server, token, 'Inner', outer)).id;
    });
    expect(changes).toMatchObject([
      { op: 'created', kind: 'folder', id: outer, parentId: null, name: 'Outer', modifiedAt: expect.any(String) },
      { op: 'created', kind: 'folder', id: inner, parentId: outer, name: 'Inner', modifiedAt: expect.any(String) },
    ]);
  });

  it('records a rename as moved, in the same place under the new name', async () => {
    const { token } = await createUser(server);
    const parent = await createFolder(server, token, 'Parent');
    const folder = await createFolder(server, token, 'Draft', parent.id);
    const changes = await changesMadeBy(server, token, async () => {
      expect((await patchFolder(token, folder.id, { name: 'Final' })).status).toBe(200);
    });
    expect(changes).toEqual([
      {
        op: 'moved',
        kind: 'folder',
        id: folder.id,
        parentId: parent.id,
        name: 'Final',
        at: expect.any(String),
        modifiedAt: expect.any(String),
      },
    ]);
  });

  it('records a move into another folder and back to the root as moved, each with the new parent', async () => {
    const { token } = await createUser(server);
    const target = await createFolder(server, token, 'Target');
    const folder = await createFolder(server, token, 'Wanderer');
    const changes = await changesMadeBy(server, token, async () => {
      expect((await patchFolder(token, folder.id, { parentId: target.id })).status).toBe(200);
      expect((await patchFolder(token, folder.id, { parentId: null })).status).toBe(200);
    });
    expect(changes).toMatchObject([
      { op: 'moved', kind: 'folder', id: folder.id, parentId: target.id, name: 'Wanderer' },
      { op: 'moved', kind: 'folder', id: folder.id, parentId: null, name: 'Wanderer' },
    ]);
  });

  it('records nothing for a move refused because it goes into the folder itself or below it', async () => {
    const user = await createUser(server);
    const { token } = user;
    const folder = await createFolder(server, token, 'Box');
    const child = await createFolder(server, token, 'Inside', folder.id);
    const dav = await davClientFor(server, user);
    const changes = await changesMadeBy(server, token, async () => {
      expect((await patchFolder(token, folder.id, { parentId: child.id })).status).toBe(409);
      expect((await patchFolder(token, folder.id, { parentId: folder.id })).status).toBe(409);
      expect((await dav('MOVE', '/dav/Box/', { headers: { destination: '/dav/Box/Inside/Box/' } })).status).toBe(409);
    });
    expect(changes).toEqual([]);
  });
});

describe('copies in the change feed', () => {
  it('records a copied file as created, with the source’s size and content hash', async () => {
    const { token } = await createUser(server);
    const bytes = randomBytes(4_321);
    const source = await createFile(server, token, bytes, { name: 'report.pdf' });
    const into = await createFolder(server, token, 'Copies');
    let copyId = '';
    const changes = await changesMadeBy(server, token, async () => {
      const copy = await server.request('POST', `/api/files/${source.id}/copy`, { token, body: { folderId: into.id } });
      expect(copy.status).toBe(201);
      copyId = copy.body.file.id;
    });
    expect(changes).toEqual([
      {
        op: 'created',
        kind: 'file',
        id: copyId,
        parentId: into.id,
        name: 'report.pdf',
        size: bytes.length,
        contentHash: sha256(bytes),
        at: expect.any(String),
        modifiedAt: expect.any(String),
      },
    ]);
  });

  it('records a copied folder as one created entry per item, parents before children, the top under its free name', async () => {
    const { token } = await createUser(server);
    const { top, hashes } = await nestedTree(token);
    let copy = { id: '', parentId: null as string | null, name: '' };
    const changes = await changesMadeBy(server, token, async () => {
      // Into the root beside "Top": the copy takes the next free name.
      const answer = await server.request('POST', `/api/user/folders/${top.id}/copy`, { token, body: { parentId: null } });
      expect(answer.status).toBe(201);
      copy = { id: answer.body.folder.id, parentId: null, name: answer.body.folder.name };
    });
    expect(copy.name).toBe('Top (1)');
    expect(changes).toHaveLength(7);
    await expectCopyCreated(token, changes, copy, hashes);
  });

  it('records a copy out of a folder shared with the caller in the caller’s feed only', async () => {
    const owner = await createUser(server);
    const recipient = await createVerifiedUser(server);
    const { top, album, hashes } = await nestedTree(owner.token);
    const share = await server.request('POST', `/api/user/folders/${top.id}/share`, {
      token: owner.token,
      body: { shareType: 'private', email: recipient.email },
    });
    expect(share.status).toBe(200);
    const ownerCursor = await latestCursor(server, owner.token);
    let copy = { id: '', parentId: null as string | null, name: '' };
    const changes = await changesMadeBy(server, recipient.token, async () => {
      // "Copy to My Files" from Shared with me: the recipient's root.
      const answer = await server.request('POST', `/api/user/folders/${album.id}/copy`, {
        token: recipient.token,
        body: { parentId: null },
      });
      expect(answer.status).toBe(201);
      copy = { id: answer.body.folder.id, parentId: null, name: 'Album' };
    });
    // The copy holds Album's tree: "Album" itself stands for the top, "Deep" and "Empty" under it.
    const albumHashes = new Map([...hashes].filter(([name]) => name !== 'top.bin'));
    expect(changes).toHaveLength(5);
    expect(changes.every((change) => change.op === 'created' && change.shareId === undefined)).toBe(true);
    expect(changes[0]).toMatchObject({ kind: 'folder', id: copy.id, parentId: null, name: 'Album' });
    expectParentsFirst(changes, null);
    expect(changes.map((change) => change.id).sort()).toEqual((await liveTreeIds(recipient.token, copy.id)).sort());
    for (const file of changes.filter((change) => change.kind === 'file')) expect(file).toMatchObject(albumHashes.get(file.name)!);
    // Nothing of the owner's changed, so nothing reaches their feed.
    expect(await changesSince(server, owner.token, ownerCursor)).toEqual([]);
  });
});

/** A folder's WebDAV getetag, read by PROPFIND at depth 0. */
async function folderEtag(dav: Awaited<ReturnType<typeof davClientFor>>, path: string): Promise<string | undefined> {
  const answer = await dav('PROPFIND', path, { headers: { depth: '0', 'content-type': 'application/xml' } });
  expect(answer.status).toBe(207);
  return /<D:getetag>([^<]*)<\/D:getetag>/.exec(answer.text)?.[1];
}

describe('WebDAV in the change feed', () => {
  it('records MKCOL as a created folder', async () => {
    const user = await createUser(server);
    const dav = await davClientFor(server, user);
    expect((await dav('MKCOL', '/dav/Outer')).status).toBe(201);
    const changes = await changesMadeBy(server, user.token, async () => {
      expect((await dav('MKCOL', '/dav/Outer/Made%20by%20DAV')).status).toBe(201);
    });
    const [outer] = await listFolders(server, user.token);
    const [made] = await listFolders(server, user.token, outer!.id);
    expect(changes).toMatchObject([{ op: 'created', kind: 'folder', id: made!.id, parentId: outer!.id, name: 'Made by DAV' }]);
  });

  it('records MOVE of a folder, a rename and then a move, as moved with the same id, each with the modification time it keeps', async () => {
    const user = await createUser(server);
    const dav = await davClientFor(server, user);
    const target = await createFolder(server, user.token, 'Target');
    const folder = await createFolder(server, user.token, 'Old');
    const changes = await changesMadeBy(server, user.token, async () => {
      expect((await dav('MOVE', '/dav/Old/', { headers: { destination: '/dav/New/' } })).status).toBe(201);
      expect((await dav('MOVE', '/dav/New/', { headers: { destination: '/dav/Target/New/' } })).status).toBe(201);
    });
    // Each MOVE is `moved`, then `updated` giving back the modification time WebDAV keeps.
    expect(changes).toMatchObject([
      { op: 'moved', kind: 'folder', id: folder.id, parentId: null, name: 'New' },
      { op: 'updated', kind: 'folder', id: folder.id, parentId: null, name: 'New', modifiedAt: folder.updatedAt },
      { op: 'moved', kind: 'folder', id: folder.id, parentId: target.id, name: 'New' },
      { op: 'updated', kind: 'folder', id: folder.id, parentId: target.id, name: 'New', modifiedAt: folder.updatedAt },
    ]);
  });

  it('records COPY of a folder as one created entry per item, parents before children', async () => {
    const user = await createUser(server);
    const dav = await davClientFor(server, user);
    const { hashes } = await nestedTree(user.token);
    const changes = await changesMadeBy(server, user.token, async () => {
      expect((await dav('COPY', '/dav/Top/', { headers: { destination: '/dav/Twin/' } })).status).toBe(201);
    });
    const twin = (await listFolders(server, user.token)).find((folder) => folder.name === 'Twin')!;
    expect(changes).toHaveLength(7);
    await expectCopyCreated(user.token, changes, { id: twin.id, parentId: null, name: 'Twin' }, hashes);
  });

  it('gives a folder a new getetag when a file is added two levels below it, and keeps a sibling folder’s', async () => {
    const user = await createUser(server);
    const dav = await davClientFor(server, user);
    const { deep } = await nestedTree(user.token);
    await createFolder(server, user.token, 'Sibling');
    const source = await createFile(server, user.token, 'a new file', { name: 'new.txt' });
    const etagOf = (path: string) => folderEtag(dav, path);
    const before = { top: await etagOf('/dav/Top/'), sibling: await etagOf('/dav/Sibling/') };
    expect(before.top).toEqual(expect.any(String));
    expect(before.sibling).toEqual(expect.any(String));
    // Deep is Top/Album/Deep: the copy lands two levels below Top.
    const copy = await server.request('POST', `/api/files/${source.id}/copy`, { token: user.token, body: { folderId: deep.id } });
    expect(copy.status).toBe(201);
    expect(await etagOf('/dav/Top/')).not.toBe(before.top);
    expect(await etagOf('/dav/Sibling/')).toBe(before.sibling);
  });

  it('gives both the folder a folder leaves and the one it enters a new getetag', async () => {
    const user = await createUser(server);
    const dav = await davClientFor(server, user);
    const from = await createFolder(server, user.token, 'From');
    const into = await createFolder(server, user.token, 'Into');
    const moving = await createFolder(server, user.token, 'Moving', from.id);
    await createFolder(server, user.token, 'Bystander');
    const before = {
      from: await folderEtag(dav, '/dav/From/'),
      into: await folderEtag(dav, '/dav/Into/'),
      bystander: await folderEtag(dav, '/dav/Bystander/'),
    };
    expect((await patchFolder(user.token, moving.id, { parentId: into.id })).status).toBe(200);
    expect(await folderEtag(dav, '/dav/From/')).not.toBe(before.from);
    expect(await folderEtag(dav, '/dav/Into/')).not.toBe(before.into);
    expect(await folderEtag(dav, '/dav/Bystander/')).toBe(before.bystander);
  });
});
