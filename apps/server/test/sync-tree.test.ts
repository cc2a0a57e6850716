import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { changesSince } from '@cloudvault/test-support/changes';
import { createFile, createFolder } from '@cloudvault/test-support/drive';
import { withNameKey } from '../src/db/name-keys.ts';
import { createVerifiedUser } from './helpers/factories.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

// GET /api/sync/tree (issue 39): every live item under the caller's root or a folder they
// can read, as NDJSON read a page at a time: the feed's cursor first, `{"end":true}` last.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

type Line = Record<string, unknown>;

/** The tree's answer: status, type and its lines parsed. */
async function tree(token: string, folderId?: string) {
  const answer = await server.request('GET', `/api/sync/tree${folderId === undefined ? '' : `?folderId=${folderId}`}`, { token });
  const lines = answer.status === 200 ? answer.text.split('\n') : [];
  // Every line ends with a newline: the last split piece is empty.
  if (lines.length > 0) expect(lines.pop()).toBe('');
  return {
    status: answer.status,
    type: answer.headers.get('content-type'),
    body: answer.body,
    lines: lines.map((line) => JSON.parse(line) as Line),
  };
}

/** The items of a tree answer keyed by name, after checking its first and last lines. */
function items(lines: Line[]): Map<string, Line> {
  expect(lines[0]).toEqual({ cursor: expect.any(String) });
  const middle = lines.slice(1, -1);
  expect(lines.at(-1)).toEqual({ end: true, count: middle.length });
  return new Map(middle.map((line) => [line.name as string, line]));
}

describe('the sync tree', () => {
  it('lists every live folder and file of the caller, with ids, parents, sizes and hashes; nothing in Trash', async () => {
    const user = await createUser(server);
    const docs = await createFolder(server, user.token, 'Docs');
    const deep = await createFolder(server, user.token, 'Deep', docs.id);
    const binned = await createFolder(server, user.token, 'Binned');
    await createFolder(server, user.token, 'Inside binned', binned.id);
    await createFile(server, user.token, 'under binned', { name: 'lost.txt', folderId: binned.id });
    const top = await createFile(server, user.token, 'hello', { name: 'top.txt' });
    const inner = await createFile(server, user.token, 'deep bytes', { name: 'inner.txt', folderId: deep.id });
    const trashedFile = await createFile(server, user.token, 'gone', { name: 'gone.txt', folderId: docs.id });
    expect((await server.request('DELETE', `/api/user/folders/${binned.id}`, { token: user.token })).status).toBeLessThan(300);
    expect((await server.request('DELETE', `/api/files/${trashedFile.id}`, { token: user.token })).status).toBeLessThan(300);
    // Someone else's items never show.
    const other = await createUser(server);
    await createFile(server, other.token, 'theirs', { name: 'theirs.txt' });

    const answer = await tree(user.token);
    expect(answer.status).toBe(200);
    expect(answer.type).toContain('application/x-ndjson');
    const listed = items(answer.lines);
    expect([...listed.keys()].sort()).toEqual(['Deep', 'Docs', 'inner.txt', 'top.txt']);
    expect(listed.get('Docs')).toEqual({ kind: 'folder', id: docs.id, parentId: null, name: 'Docs', updatedAt: expect.any(String) });
    expect(listed.get('Deep')).toMatchObject({ kind: 'folder', id: deep.id, parentId: docs.id });
    expect(listed.get('top.txt')).toEqual({
      kind: 'file',
      id: top.id,
      parentId: null,
      name: 'top.txt',
      size: 5,
      contentHash: top.contentHash,
      updatedAt: top.updatedAt,
    });
    expect(listed.get('inner.txt')).toMatchObject({ id: inner.id, parentId: deep.id, size: 10, contentHash: inner.contentHash });
  });

  it('lists below a folder: its own children carry its id as parent, the folder itself is not a line', async () => {
    const user = await createUser(server);
    const docs = await createFolder(server, user.token, 'Docs');
    const deep = await createFolder(server, user.token, 'Deep', docs.id);
    await createFile(server, user.token, 'a', { name: 'a.txt', folderId: docs.id });
    await createFile(server, user.token, 'b', { name: 'b.txt', folderId: deep.id });
    await createFile(server, user.token, 'c', { name: 'outside.txt' });

    const listed = items((await tree(user.token, docs.id)).lines);
    expect([...listed.keys()].sort()).toEqual(['Deep', 'a.txt', 'b.txt']);
    expect(listed.get('Deep')).toMatchObject({ parentId: docs.id });
    expect(listed.get('a.txt')).toMatchObject({ parentId: docs.id });
    expect(listed.get('b.txt')).toMatchObject({ parentId: deep.id });
  });

  it("lists a folder shared with the caller; 404 for one in Trash, someone else's, or no such id; 400 for a bad id", async () => {
    const owner = await createUser(server);
    const reader = await createVerifiedUser(server);
    const shared = await createFolder(server, owner.token, 'Shared');
    const sub = await createFolder(server, owner.token, 'Sub', shared.id);
    await createFile(server, owner.token, 'x', { name: 'x.txt', folderId: sub.id });
    const secret = await createFolder(server, owner.token, 'Secret');
    const share = await server.request('POST', `/api/user/folders/${shared.id}/share`, {
      token: owner.token,
      body: { shareType: 'private', email: reader.email, role: 'viewer' },
    });
    expect(share.status).toBeLessThan(300);

    const listed = items((await tree(reader.token, shared.id)).lines);
    expect([...listed.keys()].sort()).toEqual(['Sub', 'x.txt']);
    expect(listed.get('Sub')).toMatchObject({ parentId: shared.id });
    // The reader's own root lists only what is theirs.
    expect(items((await tree(reader.token)).lines).size).toBe(0);

    expect((await tree(reader.token, secret.id)).status).toBe(404);
    expect((await tree(reader.token, 'no-such-folder')).status).toBe(404);
    expect((await tree(reader.token, 'not an id!')).status).toBe(400);
    expect((await server.request('DELETE', `/api/user/folders/${sub.id}`, { token: owner.token })).status).toBeLessThan(300);
    expect((await tree(owner.token, sub.id)).status).toBe(404);
    expect((await server.request('GET', '/api/sync/tree')).status).toBe(401);
  });

  it('takes the cursor before the read: a change made after it is in the feed from that cursor', async () => {
    const user = await createUser(server);
    await createFile(server, user.token, 'before', { name: 'before.txt' });
    const [start] = (await tree(user.token)).lines;
    const after = await createFile(server, user.token, 'after', { name: 'after.txt' });
    const changes = await changesSince(server, user.token, start!.cursor as string);
    expect(changes.map((change) => (change as { id?: string }).id ?? JSON.stringify(change)).join(' ')).toContain(after.id);
  });

  it('lists thousands of items across pages, each once', async () => {
    const user = await createUser(server);
    const folder = await createFolder(server, user.token, 'Many');
    // Rows written directly: the listing's paging is what is tested, not 2,500 uploads.
    const now = new Date().toISOString();
    const rows = Array.from({ length: 2500 }, (_, index) =>
      withNameKey({
        id: `many-${String(index).padStart(5, '0')}`,
        user_id: user.user.id,
        folder_id: folder.id,
        name: `f${index}.txt`,
        mimetype: 'text/plain',
        category: 'document',
        size: 1,
        sha256: '0'.repeat(64),
        crc32: 0,
        blob_key: `none-${index}`,
        created_at: now,
        updated_at: now,
        deleted_at: null,
        trashed_root: 0,
      }),
    );
    for (let start = 0; start < rows.length; start += 250)
      await server.container.database.db
        .insertInto('files')
        .values(rows.slice(start, start + 250))
        .execute();

    const lines = (await tree(user.token)).lines;
    const listed = items(lines);
    expect(listed.size).toBe(2501);
    expect(new Set(lines.slice(1, -1).map((line) => line.id)).size).toBe(2501);
  });
});
