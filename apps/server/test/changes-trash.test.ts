import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { changesMadeBy, changesSince, latestCursor } from '@cloudvault/test-support/changes';
import { createFile, createFolder } from '@cloudvault/test-support/drive';
import { BACKGROUND_JOBS } from '../src/background-jobs.ts';
import { davClientFor } from './helpers/dav-requests.ts';
import { createVerifiedUser } from './helpers/factories.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

// What Trash writes to the change feed (docs/decisions/0060-change-journal.md): `deleted`
// for the item put in Trash (API and WebDAV), `restored` with where and as what it came
// back, and `deleted` again for each item purged (one, all, or by the retention job); the
// members of a private share see what their share shows of it.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const DAY = 24 * 60 * 60 * 1000;

async function signIn(email: string, password: string): Promise<string> {
  return (await server.request('POST', '/api/auth/login', { body: { email, password } })).body.token;
}

async function call(method: string, path: string, token: string, body?: unknown) {
  const answer = await server.request(method, path, { token, ...(body === undefined ? {} : { body }) });
  expect(answer.status, `${method} ${path}: ${answer.text}`).toBeLessThan(300);
  return answer.body;
}

async function shareFolder(ownerToken: string, folderId: string, email: string): Promise<string> {
  return (await call('POST', `/api/user/folders/${folderId}/share`, ownerToken, { shareType: 'private', email })).share.id;
}

describe('Trash in the change feed', () => {
  it('puts a file going to Trash in the feed as deleted, where it was, and nothing of its state', async () => {
    const { token } = await createUser(server);
    const folder = await createFolder(server, token, 'Work');
    const file = await createFile(server, token, 'bytes', { name: 'notes.txt', folderId: folder.id });
    const changes = await changesMadeBy(server, token, () => call('DELETE', `/api/files/${file.id}`, token));
    expect(changes).toEqual([{ op: 'deleted', kind: 'file', id: file.id, parentId: folder.id, name: 'notes.txt', at: expect.any(String) }]);
    // Deleting it again changes nothing, and writes nothing.
    expect(await changesMadeBy(server, token, () => server.request('DELETE', `/api/files/${file.id}`, { token }))).toEqual([]);
  });

  it('puts only the folder going to Trash in the feed, not what goes with it', async () => {
    const { token } = await createUser(server);
    const top = await createFolder(server, token, 'Top');
    const inside = await createFolder(server, token, 'Inside', top.id);
    await createFile(server, token, 'a', { name: 'a.txt', folderId: inside.id });
    const changes = await changesMadeBy(server, token, () => call('DELETE', `/api/user/folders/${top.id}`, token));
    expect(changes).toEqual([{ op: 'deleted', kind: 'folder', id: top.id, parentId: null, name: 'Top', at: expect.any(String) }]);
  });

  it('records a WebDAV DELETE as the API’s', async () => {
    const user = await createUser(server);
    const dav = await davClientFor(server, user);
    const folder = await createFolder(server, user.token, 'Synced');
    const file = await createFile(server, user.token, 'x', { name: 'x.txt', folderId: folder.id });
    const changes = await changesMadeBy(server, user.token, async () => {
      expect((await dav('DELETE', '/dav/Synced/x.txt')).status).toBe(204);
      expect((await dav('DELETE', '/dav/Synced')).status).toBe(204);
    });
    expect(changes).toMatchObject([
      { op: 'deleted', kind: 'file', id: file.id, parentId: folder.id, name: 'x.txt' },
      { op: 'deleted', kind: 'folder', id: folder.id, parentId: null, name: 'Synced' },
    ]);
  });

  it('puts a restore in the feed as restored with where it landed and the name it took', async () => {
    const { token } = await createUser(server);
    const gone = await createFolder(server, token, 'Gone');
    const file = await createFile(server, token, 'report bytes', { name: 'report.txt', folderId: gone.id });
    const kept = await createFolder(server, token, 'Kept');
    const inKept = await createFile(server, token, 'plan', { name: 'plan.txt', folderId: kept.id });
    await call('DELETE', `/api/files/${file.id}`, token);
    await call('DELETE', `/api/user/folders/${gone.id}`, token);
    await call('DELETE', `/api/files/${inKept.id}`, token);
    // The file's folder is in Trash, so it lands at the root, beside a namesake made meanwhile.
    await createFile(server, token, 'other', { name: 'report.txt' });

    const changes = await changesMadeBy(server, token, async () => {
      await call('POST', '/api/trash/restore', token, { type: 'file', id: file.id });
      await call('POST', '/api/trash/restore', token, { type: 'file', id: inKept.id });
      await call('POST', '/api/trash/restore', token, { type: 'folder', id: gone.id });
    });
    expect(changes).toEqual([
      {
        op: 'restored',
        kind: 'file',
        id: file.id,
        parentId: null,
        name: 'report (1).txt',
        size: 12,
        contentHash: file.contentHash ?? expect.any(String),
        modifiedAt: expect.any(String),
        at: expect.any(String),
      },
      expect.objectContaining({ op: 'restored', kind: 'file', id: inKept.id, parentId: kept.id, name: 'plan.txt', size: 4 }),
      expect.objectContaining({ op: 'restored', kind: 'folder', id: gone.id, parentId: null, name: 'Gone' }),
    ]);
  });

  it('puts each purged item in the feed as deleted again: one item, an emptied Trash', async () => {
    const { token } = await createUser(server);
    const folder = await createFolder(server, token, 'Old');
    await createFile(server, token, 'in', { name: 'in.txt', folderId: folder.id });
    const loose = await createFile(server, token, 'loose', { name: 'loose.txt' });
    const last = await createFile(server, token, 'last', { name: 'last.txt' });
    for (const path of [`/api/user/folders/${folder.id}`, `/api/files/${loose.id}`, `/api/files/${last.id}`])
      await call('DELETE', path, token);

    expect(await changesMadeBy(server, token, () => call('DELETE', `/api/trash/files/${last.id}`, token))).toEqual([
      { op: 'deleted', kind: 'file', id: last.id, parentId: null, name: 'last.txt', at: expect.any(String) },
    ]);
    const emptied = await changesMadeBy(server, token, () => call('DELETE', '/api/trash', token));
    expect(emptied).toHaveLength(2);
    expect(emptied).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ op: 'deleted', kind: 'file', id: loose.id, parentId: null, name: 'loose.txt' }),
        expect.objectContaining({ op: 'deleted', kind: 'folder', id: folder.id, parentId: null, name: 'Old' }),
      ]),
    );
    // An empty Trash emptied again writes nothing.
    expect(await changesMadeBy(server, token, () => call('DELETE', '/api/trash', token))).toEqual([]);
  });

  it('puts what the retention job purges in the feed as deleted again, and nothing it keeps', async () => {
    const user = await createUser(server);
    const settings = (await call('GET', '/api/user/settings', user.token)).settings;
    await call('PUT', '/api/user/settings', user.token, {
      ...settings,
      storage: { ...settings.storage, autoDelete: true, deleteAfterDays: 7 },
    });
    const old = await createFile(server, user.token, 'old', { name: 'old.txt' });
    const recent = await createFile(server, user.token, 'recent', { name: 'recent.txt' });
    await call('DELETE', `/api/files/${old.id}`, user.token);
    server.clock.advance(3 * DAY);
    await call('DELETE', `/api/files/${recent.id}`, user.token);
    const cursor = await latestCursor(server, user.token);

    server.clock.advance(5 * DAY);
    await server.container.jobs.runNow(BACKGROUND_JOBS.retention);
    // A week on: the session of a week ago has expired.
    const token = await signIn(user.email, user.password);
    expect(await changesSince(server, token, cursor)).toEqual([
      { op: 'deleted', kind: 'file', id: old.id, parentId: null, name: 'old.txt', at: server.clock.now().toISOString() },
    ]);
  });
});

describe('Trash in the feeds of a private share’s members', () => {
  it('takes a shared item away from its member when it or a folder above it goes to Trash, and brings it back with a restore', async () => {
    const owner = await createUser(server);
    const bob = await createVerifiedUser(server);
    const top = await createFolder(server, owner.token, 'Top');
    const team = await createFolder(server, owner.token, 'Team', top.id);
    const teamShare = await shareFolder(owner.token, team.id, bob.email);
    const memo = await createFile(server, owner.token, 'memo', { name: 'memo.txt', folderId: team.id });
    const bobCursor = await latestCursor(server, bob.token);

    // In the shared folder: Bob sees it go and come back where it was.
    await call('DELETE', `/api/files/${memo.id}`, owner.token);
    await call('POST', '/api/trash/restore', owner.token, { type: 'file', id: memo.id });
    // Above the shared folder: Bob's share goes with it and comes back with it.
    await call('DELETE', `/api/user/folders/${top.id}`, owner.token);
    await call('POST', '/api/trash/restore', owner.token, { type: 'folder', id: top.id });
    // The shared folder itself.
    await call('DELETE', `/api/user/folders/${team.id}`, owner.token);

    expect(await changesSince(server, bob.token, bobCursor)).toEqual([
      expect.objectContaining({ op: 'deleted', kind: 'file', id: memo.id, parentId: team.id, shareId: teamShare }),
      expect.objectContaining({ op: 'restored', kind: 'file', id: memo.id, parentId: team.id, name: 'memo.txt', shareId: teamShare }),
      expect.objectContaining({ op: 'deleted', kind: 'folder', id: team.id, parentId: null, name: 'Team', shareId: teamShare }),
      expect.objectContaining({ op: 'restored', kind: 'folder', id: team.id, parentId: null, name: 'Team', shareId: teamShare }),
      expect.objectContaining({ op: 'deleted', kind: 'folder', id: team.id, parentId: null, name: 'Team', shareId: teamShare }),
    ]);
    // Nothing of the owner's folder above the share reaches Bob.
    expect(JSON.stringify(await changesSince(server, bob.token, bobCursor))).not.toContain(top.id);
  });

  it('takes a file shared on its own from its member when its folder goes to Trash', async () => {
    const owner = await createUser(server);
    const bob = await createVerifiedUser(server);
    const folder = await createFolder(server, owner.token, 'Reports');
    const report = await createFile(server, owner.token, 'report', { name: 'report.txt', folderId: folder.id });
    const share = (await call('POST', `/api/files/${report.id}/share`, owner.token, { shareType: 'private', email: bob.email })).share.id;
    const bobCursor = await latestCursor(server, bob.token);
    await call('DELETE', `/api/user/folders/${folder.id}`, owner.token);
    await call('POST', '/api/trash/restore', owner.token, { type: 'folder', id: folder.id });
    expect(await changesSince(server, bob.token, bobCursor)).toEqual([
      { op: 'deleted', kind: 'file', id: report.id, parentId: null, name: 'report.txt', shareId: share, at: expect.any(String) },
      expect.objectContaining({ op: 'restored', kind: 'file', id: report.id, parentId: null, name: 'report.txt', shareId: share, size: 6 }),
    ]);
  });
});

describe('the change feed’s own retention', () => {
  it('removes entries older than 30 days with the job, and a cursor from before them answers 410 CURSOR_EXPIRED', async () => {
    const user = await createUser(server);
    const before = await latestCursor(server, user.token);
    const old = await createFolder(server, user.token, 'Old');
    const afterOld = await latestCursor(server, user.token);
    server.clock.advance(20 * DAY);
    let token = await signIn(user.email, user.password);
    const recent = await createFolder(server, token, 'Recent');

    // 31 days after the first entry: it has expired, the second has not.
    server.clock.advance(11 * DAY);
    token = await signIn(user.email, user.password);
    await Promise.all([
      server.container.jobs.runNow(BACKGROUND_JOBS.changeFeedRetention),
      server.container.jobs.runNow(BACKGROUND_JOBS.changeFeedRetention),
    ]);
    const expired = await server.request('GET', `/api/changes?cursor=${before}`, { token });
    expect(expired.status).toBe(410);
    expect(expired.body).toMatchObject({ code: 'CURSOR_EXPIRED', error: expect.any(String) });
    // From just after the removed entry the feed is whole.
    expect(await changesSince(server, token, afterOld)).toMatchObject([{ op: 'created', id: recent.id, name: 'Recent' }]);
    expect(JSON.stringify(await changesSince(server, token, afterOld))).not.toContain(old.id);
    expect(await latestCursor(server, token)).toEqual(expect.any(String));
  });
});
