import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { naturalSortKey } from '@cloudvault/contract/sort-keys';
import type { FileItem } from '@cloudvault/contract/files';
import type { Folder } from '@cloudvault/contract/folders';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFile, createFolder } from '@cloudvault/test-support/drive';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest, migrationsFor } from '../src/db/migrate.ts';
import { createVerifiedUser } from './helpers/factories.ts';
import { createTestDatabase } from './helpers/test-database.ts';
import { type ApiResponse, startTestServer, type TestServer } from './helpers/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/**
 * A folder whose files each sort differently by every key: names with numbers (natural
 * order), case that differs, sizes, modification times (uploaded a minute apart, in an
 * order that is none of the others) and types.
 */
const FILES = [
  { name: 'file 10.txt', size: 30, type: 'text/plain' },
  { name: 'File 2.txt', size: 10, type: 'text/plain' },
  { name: 'photo 1.png', size: 50, type: 'image/png' },
  { name: 'file 1.txt', size: 20, type: 'text/plain' },
  { name: 'Notes.md', size: 40, type: 'text/markdown' },
  { name: 'archive.zip', size: 60, type: 'application/zip' },
];
const FOLDERS = ['folder 10', 'Folder 9', 'a folder'];

async function fillFolder(token: string): Promise<{ box: Folder; files: FileItem[]; folders: Folder[] }> {
  const box = await createFolder(server, token, 'Box');
  const folders: Folder[] = [];
  for (const name of FOLDERS) {
    server.clock.advance(60_000);
    folders.push(await createFolder(server, token, name, box.id));
  }
  const files: FileItem[] = [];
  for (const { name, size, type } of FILES) {
    server.clock.advance(60_000);
    files.push(await createFile(server, token, 'x'.repeat(size), { name, type, folderId: box.id }));
  }
  return { box, files, folders };
}

const names = (items: Array<{ originalName?: string; name?: string }>) => items.map((item) => item.originalName ?? item.name);

/** Every page of a listing, following nextCursor; `between` runs after each page. */
async function allPages(token: string, path: string, query: string, between?: (page: number) => Promise<void>) {
  const items: Array<{ id: string; originalName?: string; name?: string }> = [];
  let cursor: string | null = null;
  for (let page = 0; page < 50; page++) {
    const response: ApiResponse = await server.request('GET', `${path}&${query}${cursor ? `&cursor=${cursor}` : ''}`, { token });
    expect(response.status).toBe(200);
    const list = response.body.files ?? response.body.folders;
    items.push(...list);
    cursor = response.body.nextCursor;
    if (cursor === null) return items;
    await between?.(page);
  }
  throw new Error('the listing never ended');
}

describe('sorted and paged listings', () => {
  let owner: { token: string };
  let box: Folder;
  let files: FileItem[];
  beforeAll(async () => {
    owner = await createUser(server);
    ({ box, files } = await fillFolder(owner.token));
  });

  it('answers as before without sort, order, limit or cursor: every file by name, no nextCursor', async () => {
    const response = await server.request('GET', `/api/files?folderId=${box.id}`, { token: owner.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ files: expect.any(Array) });
    expect(names(response.body.files)).toEqual(['archive.zip', 'file 1.txt', 'file 10.txt', 'File 2.txt', 'Notes.md', 'photo 1.png']);
    const folders = await server.request('GET', `/api/user/folders?parentId=${box.id}`, { token: owner.token });
    expect(folders.body).toEqual({ folders: expect.any(Array) });
    expect(names(folders.body.folders)).toEqual(['a folder', 'folder 10', 'Folder 9']);
  });

  it('sorts files by each key, both ways, names in natural order and case-insensitive', async () => {
    const expected: Record<string, string[]> = {
      name: ['archive.zip', 'file 1.txt', 'File 2.txt', 'file 10.txt', 'Notes.md', 'photo 1.png'],
      size: ['File 2.txt', 'file 1.txt', 'file 10.txt', 'Notes.md', 'photo 1.png', 'archive.zip'],
      // The upload order.
      modified: FILES.map((file) => file.name),
      // By mimetype, then by name.
      type: ['archive.zip', 'photo 1.png', 'Notes.md', 'file 1.txt', 'File 2.txt', 'file 10.txt'],
    };
    for (const [sort, ascending] of Object.entries(expected)) {
      const asc = await server.request('GET', `/api/files?folderId=${box.id}&sort=${sort}&order=asc`, { token: owner.token });
      expect(asc.status).toBe(200);
      expect(names(asc.body.files), sort).toEqual(ascending);
      // Every field as the unsorted listing gives it.
      expect(asc.body.files).toEqual(expect.arrayContaining(files));
      const desc = await server.request('GET', `/api/files?folderId=${box.id}&sort=${sort}&order=desc`, { token: owner.token });
      expect(names(desc.body.files), `${sort} desc`).toEqual([...ascending].reverse());
    }
  });

  it('sorts folders by name, or by modification time; by name for size and type, which folders lack', async () => {
    const list = async (query: string) =>
      names((await server.request('GET', `/api/user/folders?parentId=${box.id}&${query}`, { token: owner.token })).body.folders);
    expect(await list('sort=name')).toEqual(['a folder', 'Folder 9', 'folder 10']);
    expect(await list('sort=name&order=desc')).toEqual(['folder 10', 'Folder 9', 'a folder']);
    expect(await list('sort=modified')).toEqual(FOLDERS);
    expect(await list('sort=modified&order=desc')).toEqual([...FOLDERS].reverse());
    expect(await list('sort=size&order=desc')).toEqual(['folder 10', 'Folder 9', 'a folder']);
    expect(await list('sort=type')).toEqual(['a folder', 'Folder 9', 'folder 10']);
  });

  it('pages through every item once, in order, for each key and order', async () => {
    for (const sort of ['name', 'size', 'modified', 'type']) {
      for (const order of ['asc', 'desc']) {
        const whole = await server.request('GET', `/api/files?folderId=${box.id}&sort=${sort}&order=${order}`, { token: owner.token });
        const paged = await allPages(owner.token, `/api/files?folderId=${box.id}`, `sort=${sort}&order=${order}&limit=4`);
        expect(paged, `${sort} ${order}`).toEqual(whole.body.files);
        const pagedFolders = await allPages(owner.token, `/api/user/folders?parentId=${box.id}`, `sort=${sort}&order=${order}&limit=2`);
        const wholeFolders = await server.request('GET', `/api/user/folders?parentId=${box.id}&sort=${sort}&order=${order}`, {
          token: owner.token,
        });
        expect(pagedFolders, `folders ${sort} ${order}`).toEqual(wholeFolders.body.folders);
      }
    }
  });

  it('gives the last page a null nextCursor, and a full last page no empty one after it', async () => {
    const first = await server.request('GET', `/api/files?folderId=${box.id}&limit=6`, { token: owner.token });
    expect(first.body.files).toHaveLength(6);
    expect(first.body.nextCursor).toBeNull();
    const partial = await server.request('GET', `/api/files?folderId=${box.id}&limit=5`, { token: owner.token });
    expect(typeof partial.body.nextCursor).toBe('string');
  });

  it('pages on where the last page ended when items are added between pages', async () => {
    const { token } = await createUser(server);
    const folder = await createFolder(server, token, 'Growing');
    for (const n of [1, 3, 5, 7, 9]) await createFile(server, token, 'x', { name: `item ${n}`, folderId: folder.id });
    const listed = await allPages(token, `/api/files?folderId=${folder.id}`, 'sort=name&limit=2', async (page) => {
      // After "item 1, item 3": one before the cursor (not seen now) and one after it (seen in order).
      if (page === 0) {
        await createFile(server, token, 'x', { name: 'item 2', folderId: folder.id });
        await createFile(server, token, 'x', { name: 'item 10', folderId: folder.id });
      }
    });
    expect(names(listed)).toEqual(['item 1', 'item 3', 'item 5', 'item 7', 'item 9', 'item 10']);
  });

  it('refuses an unknown sort, order or limit and a cursor tampered with or of another order, as 400 JSON', async () => {
    const page = await server.request('GET', `/api/files?folderId=${box.id}&sort=size&limit=2`, { token: owner.token });
    const cursor: string = page.body.nextCursor;
    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const filesPath = `/api/files?folderId=${box.id}`;
    const foldersPath = `/api/user/folders?parentId=${box.id}`;
    const refused: Array<[string, string, string[]]> = [
      ['sort=colour', 'VALIDATION_FAILED', [filesPath, foldersPath]],
      ['order=up', 'VALIDATION_FAILED', [filesPath, foldersPath]],
      ['limit=0', 'INVALID_LIMIT', [filesPath, foldersPath]],
      ['limit=1001', 'INVALID_LIMIT', [filesPath, foldersPath]],
      ['limit=ten', 'INVALID_LIMIT', [filesPath, foldersPath]],
      ['cursor=not*base64', 'VALIDATION_FAILED', [filesPath, foldersPath]],
      ['cursor=bm90IGpzb24', 'INVALID_CURSOR', [filesPath, foldersPath]],
      // Another order, or another listing's cursor.
      [`sort=name&cursor=${cursor}`, 'INVALID_CURSOR', [filesPath]],
      [`sort=size&order=desc&cursor=${cursor}`, 'INVALID_CURSOR', [filesPath]],
      [`sort=size&cursor=${cursor}`, 'INVALID_CURSOR', [foldersPath]],
      // Values that are not of this order's columns: a size that is no number, too few values.
      [`sort=size&cursor=${forged({ ...decoded, after: [{}, 'a', 'b'] })}`, 'INVALID_CURSOR', [filesPath]],
      [`sort=size&cursor=${forged({ ...decoded, after: ['big', 'a', 'b'] })}`, 'INVALID_CURSOR', [filesPath]],
      [`sort=size&cursor=${forged({ ...decoded, after: decoded.after.slice(1) })}`, 'INVALID_CURSOR', [filesPath]],
    ];
    for (const [query, code, paths] of refused) {
      for (const path of paths) {
        const response = await server.request('GET', `${path}&${query}`, { token: owner.token });
        expect(response.status, `${path} ${query}`).toBe(400);
        expect(response.body.code, query).toBe(code);
        expect(typeof response.body.error).toBe('string');
      }
    }
    // The untouched cursor pages on.
    expect((await server.request('GET', `${filesPath}&sort=size&limit=2&cursor=${cursor}`, { token: owner.token })).status).toBe(200);
  });

  it("answers 404 for someone else's folder, and a private share's reader the owner's order", async () => {
    const stranger = await createVerifiedUser(server);
    for (const path of [`/api/files?folderId=${box.id}&sort=size&limit=2`, `/api/user/folders?parentId=${box.id}&sort=name`]) {
      const response = await server.request('GET', path, { token: stranger.token });
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('FOLDER_NOT_FOUND');
    }
    const shared = await server.request('POST', `/api/user/folders/${box.id}/share`, {
      token: owner.token,
      body: { shareType: 'private', email: stranger.email },
    });
    expect(shared.status).toBe(200);
    const asOwner = await server.request('GET', `/api/files?folderId=${box.id}&sort=size&order=desc`, { token: owner.token });
    const asReader = await server.request('GET', `/api/files?folderId=${box.id}&sort=size&order=desc`, { token: stranger.token });
    expect(asReader.status).toBe(200);
    expect(asReader.text).toBe(asOwner.text);
  });

  it('sorts and pages the root as any folder', async () => {
    const { token } = await createUser(server);
    for (const name of ['b 10', 'B 9', 'a']) await createFile(server, token, 'x', { name });
    for (const name of ['z 2', 'Z 11']) await createFolder(server, token, name);
    const rootFiles = await allPages(token, '/api/files?folderId=null', 'sort=name&limit=1');
    expect(names(rootFiles)).toEqual(['a', 'B 9', 'b 10']);
    const rootFolders = await server.request('GET', '/api/user/folders?sort=name&order=desc', { token });
    expect(names(rootFolders.body.folders)).toEqual(['Z 11', 'z 2']);
  });

  it('keeps names renamed or moved in their sorted place', async () => {
    const { token } = await createUser(server);
    const a = await createFolder(server, token, 'A');
    const b = await createFolder(server, token, 'B');
    const moved = await createFile(server, token, 'x', { name: 'doc 3', folderId: a.id });
    await createFile(server, token, 'x', { name: 'doc 20', folderId: b.id });
    expect((await server.request('PATCH', `/api/files/${moved.id}`, { token, body: { name: 'doc 100', folderId: b.id } })).status).toBe(
      200,
    );
    const listed = await server.request('GET', `/api/files?folderId=${b.id}&sort=name`, { token });
    expect(names(listed.body.files)).toEqual(['doc 20', 'doc 100']);
  });
});

describe('the remembered listing order', () => {
  it('is name ascending at first, saved with the settings, and kept by a save that does not send it', async () => {
    const { token } = await createUser(server);
    const first = await server.request('GET', '/api/user/settings', { token });
    expect(first.body.settings.listing).toEqual({ sort: 'name', order: 'asc' });

    const chosen = { ...first.body.settings, listing: { sort: 'modified', order: 'desc' } };
    const saved = await server.request('PUT', '/api/user/settings', { token, body: chosen });
    expect(saved.status).toBe(200);
    expect(saved.body.settings.listing).toEqual({ sort: 'modified', order: 'desc' });

    const { listing: _left, ...withoutListing } = chosen;
    const older = await server.request('PUT', '/api/user/settings', {
      token,
      body: { ...withoutListing, appearance: { theme: 'dark', language: 'en' } },
    });
    expect(older.status).toBe(200);
    expect(older.body.settings.listing).toEqual({ sort: 'modified', order: 'desc' });
    expect((await server.request('GET', '/api/user/settings', { token })).body.settings.listing).toEqual({
      sort: 'modified',
      order: 'desc',
    });

    for (const listing of [{ sort: 'colour', order: 'asc' }, { sort: 'name' }, { sort: 'name', order: 'asc', extra: 1 }]) {
      const refused = await server.request('PUT', '/api/user/settings', { token, body: { ...chosen, listing } });
      expect(refused.status).toBe(400);
    }
  });
});

describe('names stored before sorted listings', () => {
  it('are given their sort keys by the migration, more than a batch of them', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-sort-keys-migration-'));
    const database = await createTestDatabase();
    const handle = openDatabase({ databaseUrl: database.url, dataDir });
    const db = handle.db as unknown as Kysely<any>;
    try {
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrationsFor(handle.dialect) } });
      expect((await migrator.migrateTo('2026-12-05-25-limit-window-holders')).error).toBeUndefined();
      const now = '2026-01-01T00:00:00.000Z';
      await db
        .insertInto('users')
        .values({ id: 'u', email: 'u@example.com', first_name: 'U', last_name: 'U', password_hash: 'x', created_at: now, updated_at: now })
        .execute();
      const base = { user_id: 'u', created_at: now, updated_at: now, deleted_at: null, trashed_root: 0 };
      await db
        .insertInto('folders')
        .values([
          { ...base, id: 'd1', parent_id: null, name: 'Folder 10', name_key: 'folder 10' },
          { ...base, id: 'd2', parent_id: null, name: 'folder 9', name_key: 'folder 9' },
        ])
        .execute();
      // Past one batch of the backfill (1,000 rows).
      const files = Array.from({ length: 1_001 }, (_, n) => ({
        ...base,
        id: `f${String(n).padStart(4, '0')}`,
        folder_id: null,
        name: `Scan ${n}.pdf`,
        name_key: `scan ${n}.pdf`,
        mimetype: 'application/pdf',
        category: 'document',
        size: n,
        sha256: 'a'.repeat(64),
        crc32: 0,
        blob_key: `blob-${n}`,
      }));
      for (let i = 0; i < files.length; i += 200)
        await db
          .insertInto('files')
          .values(files.slice(i, i + 200))
          .execute();

      await migrateToLatest(handle.db, handle.dialect);

      for (const table of ['folders', 'files'] as const) {
        const rows = await db.selectFrom(table).select(['name', 'sort_key']).execute();
        expect(rows.filter((row) => row.sort_key !== naturalSortKey(row.name))).toEqual([]);
      }
      const first = await db.selectFrom('files').select('name').orderBy('sort_key').limit(3).execute();
      expect(first.map((row) => row.name)).toEqual(['Scan 0.pdf', 'Scan 1.pdf', 'Scan 2.pdf']);
    } finally {
      await handle.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
