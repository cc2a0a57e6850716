import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { changesMadeBy } from '@cloudvault/test-support/changes';
import { createFile, createFolder, downloadFile, listFiles, listFolders } from '@cloudvault/test-support/drive';
import { createVerifiedUser } from './helpers/factories.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

// People with roles in a shared folder, through the API (docs/decisions/0061-share-roles.md):
// a viewer reads and is refused every change with 403 READ_ONLY_SHARE; an editor changes
// the owner's items strictly inside the shared folder, which itself stays the owner's to
// rename, move or delete; what an editor deletes goes to the owner's Trash, saying who.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

type User = Awaited<ReturnType<typeof createUser>>;

async function call(method: string, path: string, token: string, body?: unknown) {
  const answer = await server.request(method, path, { token, ...(body === undefined ? {} : { body }) });
  expect(answer.status, `${method} ${path}: ${answer.text}`).toBeLessThan(300);
  return answer.body;
}

/** The status and code of an answer: what a refusal is checked by. */
async function refusal(method: string, path: string, token: string, body?: unknown) {
  const answer = await server.request(method, path, { token, ...(body === undefined ? {} : { body }) });
  return { status: answer.status, code: answer.body?.code as string | undefined };
}

const shareWith = async (owner: User, folderId: string, email: string, role?: 'viewer' | 'editor') =>
  (await call('POST', `/api/user/folders/${folderId}/share`, owner.token, { shareType: 'private', email, ...(role ? { role } : {}) }))
    .share;

/**
 * Ada owns Family/{notes.txt, Photos/{beach.jpg}} and Work/{plan.txt} beside it; Family is
 * shared with Eve as an editor and with Victor as a viewer.
 */
async function familyShared() {
  const ada = await createUser(server, { firstName: 'Ada', lastName: 'Lovelace' });
  const eve = await createVerifiedUser(server, { firstName: 'Eve', lastName: 'Editor' });
  const victor = await createVerifiedUser(server, { firstName: 'Victor', lastName: 'Viewer' });
  const stranger = await createVerifiedUser(server);
  const family = await createFolder(server, ada.token, 'Family');
  const photos = await createFolder(server, ada.token, 'Photos', family.id);
  const work = await createFolder(server, ada.token, 'Work');
  const notes = await createFile(server, ada.token, 'notes bytes', { name: 'notes.txt', folderId: family.id });
  const beach = await createFile(server, ada.token, 'beach bytes', { name: 'beach.jpg', folderId: photos.id });
  const plan = await createFile(server, ada.token, 'plan bytes', { name: 'plan.txt', folderId: work.id });
  const editorShare = await shareWith(ada, family.id, eve.email, 'editor');
  const viewerShare = await shareWith(ada, family.id, victor.email);
  return { ada, eve, victor, stranger, family, photos, work, notes, beach, plan, editorShare, viewerShare };
}

describe('a viewer of a shared folder', () => {
  it('lists and downloads, and is refused every change with 403 READ_ONLY_SHARE; outside the share, 404', async () => {
    const { victor, family, photos, work, notes, plan, viewerShare } = await familyShared();
    expect(viewerShare).toMatchObject({ role: 'viewer', mayReshare: false });
    const mine = await call('GET', '/api/shared-with-me', victor.token);
    expect(mine.folders).toEqual([expect.objectContaining({ id: family.id, role: 'viewer', mayReshare: false })]);
    expect((await listFiles(server, victor.token, family.id)).map((file) => file.originalName)).toEqual(['notes.txt']);
    expect((await downloadFile(server, victor.token, notes.id)).bytes.toString()).toBe('notes bytes');

    const readOnly = { status: 403, code: 'READ_ONLY_SHARE' };
    expect(await refusal('POST', '/api/user/folders', victor.token, { name: 'Mine', parentId: family.id })).toEqual(readOnly);
    expect(await refusal('PATCH', `/api/files/${notes.id}`, victor.token, { name: 'renamed.txt' })).toEqual(readOnly);
    expect(await refusal('PATCH', `/api/files/${notes.id}`, victor.token, { folderId: photos.id })).toEqual(readOnly);
    expect(await refusal('PATCH', `/api/user/folders/${photos.id}`, victor.token, { name: 'Pictures' })).toEqual(readOnly);
    expect(await refusal('DELETE', `/api/files/${notes.id}`, victor.token)).toEqual(readOnly);
    expect(await refusal('DELETE', `/api/user/folders/${photos.id}`, victor.token)).toEqual(readOnly);

    const notFound = { status: 404, code: expect.any(String) };
    expect(await refusal('PATCH', `/api/files/${plan.id}`, victor.token, { name: 'x.txt' })).toEqual(notFound);
    expect(await refusal('POST', '/api/user/folders', victor.token, { name: 'Mine', parentId: work.id })).toEqual(notFound);
    expect(await refusal('DELETE', `/api/user/folders/${work.id}`, victor.token)).toEqual(notFound);
    // Nothing changed.
    expect((await listFiles(server, victor.token, family.id)).map((file) => file.originalName)).toEqual(['notes.txt']);
  });
});

describe('an editor of a shared folder', () => {
  it('makes folders, renames and moves within the share as the owner’s items; never outside it', async () => {
    const { ada, eve, family, photos, work, notes, beach, editorShare } = await familyShared();
    expect(editorShare).toMatchObject({ role: 'editor', mayReshare: false });
    const mine = await call('GET', '/api/shared-with-me', eve.token);
    expect(mine.folders).toEqual([expect.objectContaining({ id: family.id, role: 'editor', mayReshare: false })]);

    const albums = (await call('POST', '/api/user/folders', eve.token, { name: 'Albums', parentId: family.id })).folder;
    expect(albums).toMatchObject({ name: 'Albums', parentId: family.id });
    // Ada's folder: in her listing, hers to rename; none of it is in Eve's drive.
    expect((await listFolders(server, ada.token, family.id)).map((folder) => folder.name)).toEqual(['Albums', 'Photos']);
    expect((await listFolders(server, eve.token)).map((folder) => folder.name)).toEqual([]);
    expect((await refusal('POST', '/api/user/folders', eve.token, { name: 'albums', parentId: family.id })).status).toBe(409);

    expect((await call('PATCH', `/api/files/${notes.id}`, eve.token, { name: 'family notes.txt' })).file.originalName).toBe(
      'family notes.txt',
    );
    expect((await call('PATCH', `/api/files/${beach.id}`, eve.token, { folderId: family.id })).file.folderId).toBe(family.id);
    expect(
      (await call('PATCH', `/api/user/folders/${photos.id}`, eve.token, { parentId: albums.id, name: 'Summer' })).folder,
    ).toMatchObject({
      name: 'Summer',
      parentId: albums.id,
    });
    expect((await listFiles(server, ada.token, family.id)).map((file) => file.originalName).sort()).toEqual([
      'beach.jpg',
      'family notes.txt',
    ]);
    // A name taken there is a clash, as for the owner.
    expect(await refusal('PATCH', `/api/files/${beach.id}`, eve.token, { name: 'family notes.txt' })).toEqual({
      status: 409,
      code: 'NAME_TAKEN',
    });

    // Out of the share: to Ada's other folder, her top level, or Eve's own drive, is not Eve's to write.
    const evesOwn = await createFolder(server, eve.token, 'Eve’s things');
    for (const destination of [work.id, null, evesOwn.id]) {
      expect(await refusal('PATCH', `/api/files/${beach.id}`, eve.token, { folderId: destination })).toEqual({
        status: 404,
        code: 'FOLDER_NOT_FOUND',
      });
      expect((await refusal('PATCH', `/api/user/folders/${photos.id}`, eve.token, { parentId: destination })).status).toBe(404);
    }
    expect((await refusal('POST', '/api/user/folders', eve.token, { name: 'In', parentId: work.id })).status).toBe(404);
    expect((await listFiles(server, ada.token, work.id)).map((file) => file.originalName)).toEqual(['plan.txt']);

    // The shared folder itself stays as its owner placed it.
    const locked = { status: 403, code: 'SHARE_ROOT_LOCKED' };
    expect(await refusal('PATCH', `/api/user/folders/${family.id}`, eve.token, { name: 'Mine now' })).toEqual(locked);
    expect(await refusal('PATCH', `/api/user/folders/${family.id}`, eve.token, { parentId: null })).toEqual(locked);
    expect(await refusal('DELETE', `/api/user/folders/${family.id}`, eve.token)).toEqual(locked);
    expect((await call('GET', `/api/user/folders/${family.id}/path`, ada.token)).path).toEqual([
      expect.objectContaining({ id: family.id, name: 'Family' }),
    ]);
  });

  it('deletes to the owner’s Trash, which names the editor; only the owner restores', async () => {
    const { ada, eve, family, photos, notes } = await familyShared();
    await call('DELETE', `/api/files/${notes.id}`, eve.token);
    await call('DELETE', `/api/user/folders/${photos.id}`, eve.token);
    const own = await createFile(server, ada.token, 'own bytes', { name: 'own.txt', folderId: family.id });
    await call('DELETE', `/api/files/${own.id}`, ada.token);

    const trash = await call('GET', '/api/trash', ada.token);
    expect(trash.files).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: notes.id, originalName: 'notes.txt', deletedBy: { firstName: 'Eve', lastName: 'Editor' } }),
      ]),
    );
    expect(trash.files.find((file: { id: string }) => file.id === own.id)).not.toHaveProperty('deletedBy');
    expect(trash.folders).toEqual([expect.objectContaining({ id: photos.id, deletedBy: { firstName: 'Eve', lastName: 'Editor' } })]);
    expect(await call('GET', '/api/trash', eve.token)).toEqual({ folders: [], files: [] });

    expect(await refusal('POST', '/api/trash/restore', eve.token, { type: 'file', id: notes.id })).toEqual({
      status: 404,
      code: 'NOT_IN_TRASH',
    });
    expect(await refusal('POST', '/api/trash/restore', eve.token, { type: 'folder', id: photos.id })).toEqual({
      status: 404,
      code: 'NOT_IN_TRASH',
    });
    await call('POST', '/api/trash/restore', ada.token, { type: 'file', id: notes.id });
    expect((await listFiles(server, eve.token, family.id)).map((file) => file.originalName)).toEqual(['notes.txt']);
    // Deleted again by its owner, it no longer names Eve.
    await call('DELETE', `/api/files/${notes.id}`, ada.token);
    const again = (await call('GET', '/api/trash', ada.token)).files.find((file: { id: string }) => file.id === notes.id);
    expect(again).not.toHaveProperty('deletedBy');
  });

  it('is refused at once when the owner makes them a viewer, and reaches nothing once the share is revoked', async () => {
    const { ada, eve, family, notes, editorShare } = await familyShared();
    await call('PATCH', `/api/files/${notes.id}`, eve.token, { name: 'one.txt' });
    // Sharing again with another role changes the role of the same share.
    const demoted = await shareWith(ada, family.id, eve.email, 'viewer');
    expect(demoted).toMatchObject({ id: editorShare.id, role: 'viewer' });
    expect(await refusal('PATCH', `/api/files/${notes.id}`, eve.token, { name: 'two.txt' })).toEqual({
      status: 403,
      code: 'READ_ONLY_SHARE',
    });
    expect((await call('GET', '/api/shared-with-me', eve.token)).folders).toEqual([expect.objectContaining({ role: 'viewer' })]);

    await call('DELETE', `/api/shares/${editorShare.id}`, ada.token);
    expect((await refusal('PATCH', `/api/files/${notes.id}`, eve.token, { name: 'two.txt' })).status).toBe(404);
    expect((await refusal('GET', `/api/files?folderId=${family.id}`, eve.token)).status).toBe(404);
  });

  it('of a file shared on its own renames it where it is, and may not move or delete it', async () => {
    const ada = await createUser(server, { firstName: 'Ada' });
    const eve = await createVerifiedUser(server);
    const work = await createFolder(server, ada.token, 'Work');
    const other = await createFolder(server, ada.token, 'Other');
    const report = await createFile(server, ada.token, 'report bytes', { name: 'report.txt', folderId: work.id });
    await call('POST', `/api/files/${report.id}/share`, ada.token, { shareType: 'private', email: eve.email, role: 'editor' });
    expect((await call('GET', '/api/shared-with-me', eve.token)).files).toEqual([
      expect.objectContaining({ id: report.id, role: 'editor' }),
    ]);

    expect((await call('PATCH', `/api/files/${report.id}`, eve.token, { name: 'final report.txt' })).file).toMatchObject({
      originalName: 'final report.txt',
      folderId: work.id,
    });
    const locked = { status: 403, code: 'SHARE_ROOT_LOCKED' };
    expect(await refusal('PATCH', `/api/files/${report.id}`, eve.token, { folderId: other.id })).toEqual(locked);
    expect(await refusal('DELETE', `/api/files/${report.id}`, eve.token)).toEqual(locked);
    expect((await listFiles(server, ada.token, work.id)).map((file) => file.originalName)).toEqual(['final report.txt']);
  });
});

describe('leaving a share', () => {
  it('ends the member’s access at once, leaves their feed and the owner’s list; someone else’s share is 404', async () => {
    const { ada, victor, stranger, family, viewerShare } = await familyShared();
    expect(await refusal('DELETE', `/api/shared-with-me/${viewerShare.id}`, stranger.token)).toEqual({
      status: 404,
      code: 'SHARE_NOT_FOUND',
    });
    expect(await refusal('DELETE', `/api/shared-with-me/${viewerShare.id}`, ada.token)).toEqual({ status: 404, code: 'SHARE_NOT_FOUND' });

    const left = await changesMadeBy(server, victor.token, async () => {
      const answer = await server.request('DELETE', `/api/shared-with-me/${viewerShare.id}`, { token: victor.token });
      expect(answer.status).toBe(204);
    });
    expect(left).toEqual([expect.objectContaining({ op: 'deleted', kind: 'folder', id: family.id, shareId: viewerShare.id })]);
    expect((await call('GET', '/api/shared-with-me', victor.token)).folders).toEqual([]);
    expect((await refusal('GET', `/api/files?folderId=${family.id}`, victor.token)).status).toBe(404);
    const ownerList = (await call('GET', '/api/shares', ada.token)).shares.map((share: { id: string }) => share.id);
    expect(ownerList).not.toContain(viewerShare.id);
    expect(await refusal('DELETE', `/api/shared-with-me/${viewerShare.id}`, victor.token)).toEqual({
      status: 404,
      code: 'SHARE_NOT_FOUND',
    });
  });
});

describe('sharing further', () => {
  it('lets a member whose share allows it share the owner’s folder, no higher than their own role, as the owner’s share', async () => {
    const { ada, eve, victor, stranger, family, photos, notes, editorShare, viewerShare } = await familyShared();
    const walt = await createVerifiedUser(server);
    const zoe = await createVerifiedUser(server);
    const shareAs = (member: User, folderId: string, email: string, role: 'viewer' | 'editor') =>
      refusal('POST', `/api/user/folders/${folderId}/share`, member.token, { shareType: 'private', email, role });
    const notAllowed = { status: 403, code: 'RESHARE_NOT_ALLOWED' };
    // Off by default.
    expect(await shareAs(eve, family.id, walt.email, 'viewer')).toEqual(notAllowed);
    expect(await shareAs(stranger, family.id, walt.email, 'viewer')).toEqual({ status: 404, code: 'FOLDER_NOT_FOUND' });

    await call('POST', `/api/user/folders/${family.id}/share`, ada.token, {
      shareType: 'private',
      email: eve.email,
      role: 'editor',
      mayReshare: true,
    });
    await call('POST', `/api/user/folders/${family.id}/share`, ada.token, { shareType: 'private', email: victor.email, mayReshare: true });
    expect((await call('GET', '/api/shared-with-me', eve.token)).folders).toEqual([
      expect.objectContaining({ id: family.id, role: 'editor', mayReshare: true }),
    ]);
    // A viewer passes on viewing only.
    expect(await shareAs(victor, photos.id, zoe.email, 'editor')).toEqual(notAllowed);
    expect(await shareAs(victor, photos.id, zoe.email, 'viewer')).toEqual({ status: 200, code: undefined });
    expect((await call('GET', '/api/shared-with-me', zoe.token)).folders).toEqual([
      expect.objectContaining({ id: photos.id, role: 'viewer' }),
    ]);
    // Not with the owner, nor oneself.
    expect(await shareAs(eve, family.id, ada.email, 'viewer')).toEqual({ status: 400, code: 'SHARE_WITH_SELF' });
    expect(await shareAs(eve, family.id, eve.email, 'viewer')).toEqual({ status: 400, code: 'SHARE_WITH_SELF' });

    const walts = (
      await call('POST', `/api/user/folders/${family.id}/share`, eve.token, { shareType: 'private', email: walt.email, role: 'editor' })
    ).share;
    expect(walts).toMatchObject({ kind: 'private', email: walt.email, itemId: family.id, role: 'editor', mayReshare: false });
    await call('PATCH', `/api/files/${notes.id}`, walt.token, { name: 'walt.txt' });
    // It is Ada's share: in her list beside hers, and hers to remove.
    const adas = (await call('GET', '/api/shares', ada.token)).shares.map((share: { id: string }) => share.id);
    expect(adas).toEqual(expect.arrayContaining([editorShare.id, viewerShare.id, walts.id]));
    await call('DELETE', `/api/shares/${walts.id}`, ada.token);
    expect((await refusal('GET', `/api/files?folderId=${family.id}`, walt.token)).status).toBe(404);
  });
});

describe('a shared folder’s activity', () => {
  it('tells owner and members who did what in its subtree, newest first; anyone else gets 404', async () => {
    const { ada, eve, victor, stranger, family, photos, notes, beach } = await familyShared();
    // A second between actions: the activity is ordered by time.
    const later = () => server.clock.advance(1000);
    later();
    await call('PATCH', `/api/files/${notes.id}`, eve.token, { name: 'renamed.txt' });
    later();
    await call('POST', '/api/user/folders', eve.token, { name: 'Albums', parentId: photos.id });
    later();
    await call('PATCH', `/api/files/${beach.id}`, eve.token, { folderId: family.id });
    later();
    await call('DELETE', `/api/files/${notes.id}`, eve.token);
    later();
    await call('PATCH', `/api/user/folders/${photos.id}`, ada.token, { name: 'Pictures' });

    const expected = [
      {
        action: 'renamed',
        kind: 'folder',
        name: 'Pictures',
        actor: { name: 'Ada Lovelace', isLinkVisitor: false },
        folderId: family.id,
        details: { from: 'Photos' },
      },
      {
        action: 'deleted',
        kind: 'file',
        name: 'renamed.txt',
        actor: { name: 'Eve Editor', isLinkVisitor: false },
        folderId: family.id,
        details: {},
      },
      {
        action: 'moved',
        kind: 'file',
        name: 'beach.jpg',
        actor: { name: 'Eve Editor', isLinkVisitor: false },
        folderId: family.id,
        details: { fromFolderId: photos.id },
      },
      {
        action: 'created',
        kind: 'folder',
        name: 'Albums',
        actor: { name: 'Eve Editor', isLinkVisitor: false },
        folderId: photos.id,
        details: {},
      },
      {
        action: 'renamed',
        kind: 'file',
        name: 'renamed.txt',
        actor: { name: 'Eve Editor', isLinkVisitor: false },
        folderId: family.id,
        details: { from: 'notes.txt' },
      },
      // Before the share, Ada made Photos there: hers is in the activity too.
      {
        action: 'created',
        kind: 'folder',
        name: 'Photos',
        actor: { name: 'Ada Lovelace', isLinkVisitor: false },
        folderId: family.id,
        details: {},
      },
    ];
    for (const reader of [ada, eve, victor]) {
      const { activity } = await call('GET', `/api/user/folders/${family.id}/activity`, reader.token);
      expect(activity).toEqual(expected.map((entry) => ({ ...entry, id: expect.any(String), createdAt: expect.any(String) })));
    }
    // A folder inside shows its own subtree only.
    const inside = (await call('GET', `/api/user/folders/${photos.id}/activity`, victor.token)).activity;
    expect(inside.map((entry: { action: string; name: string }) => [entry.action, entry.name])).toEqual([['created', 'Albums']]);
    expect(await refusal('GET', `/api/user/folders/${family.id}/activity`, stranger.token)).toEqual({
      status: 404,
      code: 'FOLDER_NOT_FOUND',
    });
  });
});

describe('the change feed after an editor’s change', () => {
  it('carries the editor’s rename to the owner and to every member, as the owner’s own would', async () => {
    const { ada, eve, victor, notes, editorShare, viewerShare } = await familyShared();
    const rename = () => call('PATCH', `/api/files/${notes.id}`, eve.token, { name: 'by eve.txt' });
    let victorsCursorFeed: unknown[] = [];
    let evesFeed: unknown[] = [];
    const adasFeed = await changesMadeBy(server, ada.token, async () => {
      evesFeed = await changesMadeBy(server, eve.token, async () => {
        victorsCursorFeed = await changesMadeBy(server, victor.token, rename);
      });
    });
    const renamed = { kind: 'file', id: notes.id, name: 'by eve.txt' };
    expect(adasFeed).toEqual([expect.objectContaining(renamed)]);
    expect(adasFeed[0]).not.toHaveProperty('shareId');
    expect(evesFeed).toEqual([expect.objectContaining({ ...renamed, shareId: editorShare.id })]);
    expect(victorsCursorFeed).toEqual([expect.objectContaining({ ...renamed, shareId: viewerShare.id })]);
  });
});
