import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFolder } from '@cloudvault/test-support/drive';
import { createVerifiedUser } from './helpers/factories.ts';
import { withTablesRead } from './helpers/tables-read.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('folders', () => {
  it('creates nested folders, lists them by parent sorted by name, and gives the path top-down', async () => {
    const { token } = await createUser(server);
    const photos = await createFolder(server, token, 'Photos');
    await createFolder(server, token, 'archive');
    const trip = await createFolder(server, token, '2026 Trip', photos.id);
    const day = await createFolder(server, token, 'Day 1', trip.id);

    const root = await server.request('GET', '/api/user/folders', { token });
    expect(root.status).toBe(200);
    expect(root.body.folders.map((f: { name: string }) => f.name)).toEqual(['archive', 'Photos']);
    expect(root.body.folders[0]).toEqual({
      id: expect.any(String),
      name: 'archive',
      parentId: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });

    for (const query of ['?parentId=null', '?parentId=', '?timestamp=123']) {
      const again = await server.request('GET', `/api/user/folders${query}`, { token });
      expect(again.body.folders).toHaveLength(2);
    }
    const inside = await server.request('GET', `/api/user/folders?parentId=${photos.id}`, { token });
    expect(inside.body.folders.map((f: { id: string }) => f.id)).toEqual([trip.id]);

    const path = await server.request('GET', `/api/user/folders/${day.id}/path`, { token });
    expect(path.status).toBe(200);
    expect(path.body.path.map((f: { name: string }) => f.name)).toEqual(['Photos', '2026 Trip', 'Day 1']);
  });

  it('lists every sub-folder in one JSON body, by name, read from the database a page of 500 at a time', { timeout: 180_000 }, async () => {
    const owner = await createUser(server);
    const parent = await createFolder(server, owner.token, 'Many');
    const now = server.clock.now().toISOString();
    // Names differing in case from their neighbours: the order is their key's, across pages too.
    const rows = Array.from({ length: 501 }, (_, index) => ({
      id: `sub-${String(index).padStart(3, '0')}-${parent.id}`,
      user_id: owner.user.id,
      parent_id: parent.id,
      name: `${['Sub', 'sub', 'SUB'][index % 3]} ${String(index).padStart(3, '0')}`,
      name_key: `sub ${String(index).padStart(3, '0')}`,
      created_at: now,
      updated_at: now,
      deleted_at: null,
      trashed_root: 0,
    }));
    const db = server.container.database.db;
    await db.insertInto('folders').values(rows).execute();
    const reader = await createVerifiedUser(server);
    expect(
      (
        await server.request('POST', `/api/user/folders/${parent.id}/share`, {
          token: owner.token,
          body: { shareType: 'private', email: reader.email },
        })
      ).status,
    ).toBe(200);

    const { result: response, tablesRead } = await withTablesRead(server, () =>
      server.request('GET', `/api/user/folders?parentId=${parent.id}`, { token: owner.token }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.body.folders.map((folder: { id: string }) => folder.id)).toEqual(rows.map((row) => row.id));
    expect(response.body.folders[500]).toEqual({ id: rows[500]?.id, name: 'SUB 500', parentId: parent.id, createdAt: now, updatedAt: now });
    // Two pages (the parent's own check, compiled once at start-up, builds no query here).
    expect(tablesRead.filter((table) => table === 'folders')).toHaveLength(2);

    // The read-only listing of a folder shared privately gives the reader the same answer.
    const shared = await server.request('GET', `/api/user/folders?parentId=${parent.id}`, { token: reader.token });
    expect(shared.status).toBe(200);
    expect(shared.text).toBe(response.text);
  });

  it('refuses blank, dot and taken names', async () => {
    const { token } = await createUser(server);
    await createFolder(server, token, 'Docs');
    for (const name of ['', '   ', '.', '..', '/', 'x'.repeat(256)]) {
      const response = await server.request('POST', '/api/user/folders', { token, body: { name, parentId: null } });
      expect(response.status).toBe(400);
      expect(typeof response.body.error).toBe('string');
    }
    const taken = await server.request('POST', '/api/user/folders', { token, body: { name: ' docs ', parentId: null } });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe('A folder named "docs" already exists here');
  });

  it('strips separators and control characters from names', async () => {
    const { token } = await createUser(server);
    const folder = await createFolder(server, token, '../a/b\\c\u0007 日本');
    expect(folder.name).toBe('..abc 日本');
  });

  it('strips bidirectional controls from folder names, at creation and rename', async () => {
    const { token } = await createUser(server);
    const folder = await createFolder(server, token, 'photos\u202Egpj.exe');
    expect(folder.name).toBe('photosgpj.exe');
    const renamed = await server.request('PATCH', `/api/user/folders/${folder.id}`, { token, body: { name: '\u2066Trips\u2069' } });
    expect(renamed.body.folder.name).toBe('Trips');
  });

  it('renames and moves, and refuses a move into itself or a descendant', async () => {
    const { token } = await createUser(server);
    const a = await createFolder(server, token, 'A');
    const b = await createFolder(server, token, 'B', a.id);
    const c = await createFolder(server, token, 'C', b.id);
    const other = await createFolder(server, token, 'Other');

    const renamed = await server.request('PATCH', `/api/user/folders/${b.id}`, { token, body: { name: 'Bee' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.folder).toMatchObject({ id: b.id, name: 'Bee', parentId: a.id });

    for (const target of [a.id, c.id]) {
      const cycle = await server.request('PATCH', `/api/user/folders/${a.id}`, { token, body: { parentId: target } });
      expect(cycle.status).toBe(409);
    }
    const moved = await server.request('PATCH', `/api/user/folders/${b.id}`, { token, body: { parentId: other.id } });
    expect(moved.body.folder.parentId).toBe(other.id);
    const toRoot = await server.request('PATCH', `/api/user/folders/${b.id}`, { token, body: { parentId: null } });
    expect(toRoot.body.folder.parentId).toBeNull();

    await createFolder(server, token, 'Clash', other.id);
    const clash = await createFolder(server, token, 'clash');
    const onto = await server.request('PATCH', `/api/user/folders/${clash.id}`, { token, body: { parentId: other.id } });
    expect(onto.status).toBe(409);
    expect((await server.request('PATCH', `/api/user/folders/${a.id}`, { token, body: {} })).status).toBe(400);
  });

  it("answers 404 for another user's folder on every route and never lets them create or move into it", async () => {
    const owner = await createUser(server);
    const intruder = await createUser(server);
    const secret = await createFolder(server, owner.token, 'Secret');
    const own = await createFolder(server, intruder.token, 'Mine');
    const t = intruder.token;

    const attempts = [
      server.request('GET', `/api/user/folders?parentId=${secret.id}`, { token: t }),
      server.request('GET', `/api/user/folders/${secret.id}/path`, { token: t }),
      server.request('POST', '/api/user/folders', { token: t, body: { name: 'x', parentId: secret.id } }),
      server.request('PATCH', `/api/user/folders/${secret.id}`, { token: t, body: { name: 'pwned' } }),
      server.request('PATCH', `/api/user/folders/${own.id}`, { token: t, body: { parentId: secret.id } }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status).toBe(404);
      expect(response.body.error).toBe('Folder not found');
    }
    const untouched = await server.request('GET', `/api/user/folders/${secret.id}/path`, { token: owner.token });
    expect(untouched.body.path[0].name).toBe('Secret');
  });

  it('answers malformed ids with 400 or 404, never 500', async () => {
    const { token } = await createUser(server);
    for (const id of ['..%2F..', 'a'.repeat(65), '%00', "1'%20OR%20'1'='1"]) {
      const response = await server.request('GET', `/api/user/folders/${id}/path`, { token });
      expect([400, 404]).toContain(response.status);
    }
  });

  it('requires a session', async () => {
    expect((await server.request('GET', '/api/user/folders')).status).toBe(401);
  });
});
