import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { changesMadeBy, changesSince, latestCursor } from '@cloudvault/test-support/changes';
import { createFile, createFolder } from '@cloudvault/test-support/drive';
import { createVerifiedUser, verifyEmail } from './helpers/factories.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

// Private shares in the change feed (docs/decisions/0053, 0060-change-journal.md): a
// share's root enters its member's feed when it is made and leaves it when it is revoked
// or its owner's account is deleted; what changes inside a shared folder reaches the
// member with the share's id, and nothing else of the owner's ever does.

const OPERATOR = 'feed-operator@example.com';

let server: TestServer;
let operator: Awaited<ReturnType<typeof createVerifiedUser>>;
beforeAll(async () => {
  server = await startTestServer({ env: { ADMIN_EMAILS: OPERATOR } });
  operator = await createVerifiedUser(server, { email: OPERATOR });
});
afterAll(() => server.close());

async function call(method: string, path: string, token: string, body?: unknown) {
  const answer = await server.request(method, path, { token, ...(body === undefined ? {} : { body }) });
  expect(answer.status, `${method} ${path}: ${answer.text}`).toBeLessThan(300);
  return answer.body;
}

const shareFolder = async (token: string, folderId: string, email: string): Promise<string> =>
  (await call('POST', `/api/user/folders/${folderId}/share`, token, { shareType: 'private', email })).share.id;
const shareFile = async (token: string, fileId: string, email: string): Promise<string> =>
  (await call('POST', `/api/files/${fileId}/share`, token, { shareType: 'private', email })).share.id;

describe('a private share in its member’s feed', () => {
  it('enters as created at the top when made, once, and leaves as deleted when revoked; the owner’s feed is untouched', async () => {
    const owner = await createUser(server);
    const bob = await createVerifiedUser(server);
    const team = await createFolder(server, owner.token, 'Team', (await createFolder(server, owner.token, 'Work')).id);
    const ownerCursor = await latestCursor(server, owner.token);

    let shareId = '';
    const made = await changesMadeBy(server, bob.token, async () => {
      shareId = await shareFolder(owner.token, team.id, bob.email);
      // The same address again is the same share: nothing new.
      await shareFolder(owner.token, team.id, bob.email);
    });
    expect(made).toEqual([
      {
        op: 'created',
        kind: 'folder',
        id: team.id,
        parentId: null,
        name: 'Team',
        shareId,
        at: expect.any(String),
        modifiedAt: expect.any(String),
      },
    ]);

    const revoked = await changesMadeBy(server, bob.token, () => call('DELETE', `/api/shares/${shareId}`, owner.token));
    expect(revoked).toEqual([
      { op: 'deleted', kind: 'folder', id: team.id, parentId: null, name: 'Team', shareId, at: expect.any(String) },
    ]);
    expect(await changesSince(server, owner.token, ownerCursor)).toEqual([]);
  });

  it('enters a file shared on its own with its size and hash', async () => {
    const owner = await createUser(server);
    const bob = await createVerifiedUser(server);
    const folder = await createFolder(server, owner.token, 'Reports');
    const report = await createFile(server, owner.token, 'report bytes', { name: 'report.txt', folderId: folder.id });
    let shareId = '';
    const made = await changesMadeBy(server, bob.token, async () => {
      shareId = await shareFile(owner.token, report.id, bob.email);
    });
    expect(made).toEqual([
      {
        op: 'created',
        kind: 'file',
        id: report.id,
        parentId: null,
        name: 'report.txt',
        shareId,
        size: 12,
        contentHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        modifiedAt: expect.any(String),
        at: expect.any(String),
      },
    ]);
  });

  it('reaches no feed for a link, an address without an account, or an account whose address is unproven', async () => {
    const owner = await createUser(server);
    const unverified = await createUser(server);
    const folder = await createFolder(server, owner.token, 'Open');
    const cursor = await latestCursor(server, unverified.token);
    const ownerChanges = await changesMadeBy(server, owner.token, async () => {
      await call('POST', `/api/user/folders/${folder.id}/share`, owner.token, { shareType: 'public' });
      await shareFolder(owner.token, folder.id, 'nobody-yet@example.com');
      await shareFolder(owner.token, folder.id, unverified.email);
    });
    expect(ownerChanges).toEqual([]);
    expect(await changesSince(server, unverified.token, cursor)).toEqual([]);
  });

  it('enters the feed of an account once it verifies the address the share was made for', async () => {
    const owner = await createUser(server);
    const later = await createUser(server);
    const folder = await createFolder(server, owner.token, 'Waiting');
    const shareId = await shareFolder(owner.token, folder.id, later.email);
    const seen = await changesMadeBy(server, later.token, () => verifyEmail(server, later.email));
    expect(seen).toEqual([
      {
        op: 'created',
        kind: 'folder',
        id: folder.id,
        parentId: null,
        name: 'Waiting',
        shareId,
        at: expect.any(String),
        modifiedAt: expect.any(String),
      },
    ]);
  });
});

describe('changes inside a shared folder in its member’s feed', () => {
  it('brings uploads, renames and moves into and out of the folder to the member, and nothing from elsewhere', async () => {
    const owner = await createUser(server);
    const bob = await createVerifiedUser(server);
    const team = await createFolder(server, owner.token, 'Team');
    const inner = await createFolder(server, owner.token, 'Inner', team.id);
    const elsewhere = await createFolder(server, owner.token, 'Private');
    const secret = await createFile(server, owner.token, 'secret', { name: 'secret.txt', folderId: elsewhere.id });
    const shareId = await shareFolder(owner.token, team.id, bob.email);
    const bobCursor = await latestCursor(server, bob.token);

    const upload = await createFile(server, owner.token, 'plan bytes', { name: 'plan.txt', folderId: inner.id });
    await call('PATCH', `/api/files/${upload.id}`, owner.token, { name: 'plan-v2.txt' });
    await call('PATCH', `/api/files/${upload.id}`, owner.token, { folderId: elsewhere.id });
    await call('PATCH', `/api/files/${secret.id}`, owner.token, { folderId: team.id });
    // Outside the shared folder: none of this reaches Bob.
    await createFile(server, owner.token, 'other', { name: 'other.txt', folderId: elsewhere.id });
    await call('PATCH', `/api/files/${upload.id}`, owner.token, { name: 'moved-away.txt' });
    await createFolder(server, owner.token, 'Another');

    const seen = await changesSince(server, bob.token, bobCursor);
    expect(seen).toEqual([
      expect.objectContaining({ op: 'created', kind: 'file', id: upload.id, parentId: inner.id, name: 'plan.txt', shareId, size: 10 }),
      expect.objectContaining({ op: 'moved', kind: 'file', id: upload.id, parentId: inner.id, name: 'plan-v2.txt', shareId }),
      { op: 'deleted', kind: 'file', id: upload.id, parentId: inner.id, name: 'plan-v2.txt', shareId, at: expect.any(String) },
      expect.objectContaining({ op: 'created', kind: 'file', id: secret.id, parentId: team.id, name: 'secret.txt', shareId, size: 6 }),
    ]);
    const text = JSON.stringify(seen);
    for (const hidden of [elsewhere.id, 'other.txt', 'moved-away.txt', 'Another']) expect(text).not.toContain(hidden);
  });

  it('shows a member nothing of the owner’s through the member’s own cursor, and the owner nothing of the member’s', async () => {
    const owner = await createUser(server);
    const bob = await createVerifiedUser(server);
    const shared = await createFolder(server, owner.token, 'Shared');
    await shareFolder(owner.token, shared.id, bob.email);
    const bobCursor = await latestCursor(server, bob.token);
    const ownerCursor = await latestCursor(server, owner.token);
    const mine = await createFolder(server, owner.token, 'Mine');
    const bobs = await createFolder(server, bob.token, 'Bobs');
    expect((await changesSince(server, bob.token, bobCursor)).map((change) => change.id)).toEqual([bobs.id]);
    expect((await changesSince(server, owner.token, ownerCursor)).map((change) => change.id)).toEqual([mine.id]);
    // Another account's cursor is refused, not read.
    expect((await server.request('GET', `/api/changes?cursor=${ownerCursor}`, { token: bob.token })).status).toBe(400);
  });
});

describe('an owner’s account deleted', () => {
  it('takes each live shared item away from its members; what is in Trash or revoked left before', async () => {
    const owner = await createUser(server);
    const bob = await createVerifiedUser(server);
    const carol = await createVerifiedUser(server);
    const team = await createFolder(server, owner.token, 'Team');
    const report = await createFile(server, owner.token, 'report', { name: 'report.txt', folderId: team.id });
    const trashed = await createFolder(server, owner.token, 'Trashed');
    const teamForBob = await shareFolder(owner.token, team.id, bob.email);
    const reportForCarol = await shareFile(owner.token, report.id, carol.email);
    await shareFolder(owner.token, trashed.id, bob.email);
    await call('DELETE', `/api/user/folders/${trashed.id}`, owner.token);
    await call('DELETE', `/api/shares/${await shareFolder(owner.token, team.id, carol.email)}`, owner.token);
    const bobCursor = await latestCursor(server, bob.token);
    const carolCursor = await latestCursor(server, carol.token);

    await call('DELETE', '/api/user/account', owner.token, { password: owner.password });
    expect(await changesSince(server, bob.token, bobCursor)).toEqual([
      { op: 'deleted', kind: 'folder', id: team.id, parentId: null, name: 'Team', shareId: teamForBob, at: expect.any(String) },
    ]);
    expect(await changesSince(server, carol.token, carolCursor)).toEqual([
      { op: 'deleted', kind: 'file', id: report.id, parentId: null, name: 'report.txt', shareId: reportForCarol, at: expect.any(String) },
    ]);
  });
});

describe('operator actions on an owner’s account', () => {
  it('takes the owner’s shares from their members while suspended, brings them back after, and takes them for good when deleted', async () => {
    const owner = await createUser(server);
    const bob = await createVerifiedUser(server);
    const team = await createFolder(server, owner.token, 'Team');
    const shareId = await shareFolder(owner.token, team.id, bob.email);
    const admin = (method: string, path: string, body: unknown) =>
      call(method, `/api/admin/users/${owner.user.id}${path}`, operator.token, body);
    const cursor = await latestCursor(server, bob.token);

    await admin('PATCH', '', { suspended: true, reason: 'abuse report' });
    // Suspending again changes nothing.
    await admin('PATCH', '', { suspended: true, reason: 'abuse report' });
    await admin('PATCH', '', { suspended: false, reason: 'resolved' });
    await admin('DELETE', '', { confirmEmail: owner.email, reason: 'asked to', password: operator.password });
    const root = { kind: 'folder', id: team.id, parentId: null, name: 'Team', shareId };
    expect(await changesSince(server, bob.token, cursor)).toEqual([
      { op: 'deleted', ...root, at: expect.any(String) },
      { op: 'created', ...root, at: expect.any(String), modifiedAt: expect.any(String) },
      { op: 'deleted', ...root, at: expect.any(String) },
    ]);
  });
});
