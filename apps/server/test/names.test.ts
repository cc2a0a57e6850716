import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createUser } from '@cloudvault/test-support/accounts';
import { subscribe } from '@cloudvault/test-support/checkout';
import { createFolder, downloadFile, listFiles, listFolders, uploadFile } from '@cloudvault/test-support/drive';
import { type Kysely, Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest, migrationsFor } from '../src/db/migrate.ts';
import { findStaleNameKeys } from '../src/db/name-keys.ts';
import { davClientTestsRun, requireDavClient, runTool } from './helpers/dav-clients.ts';
import { basicAuth, davRequest } from './helpers/dav-requests.ts';
import { createTestDatabase } from './helpers/test-database.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

/** Names as a keyboard sends them (composed, NFC) and as macOS's Finder sends them (decomposed, NFD). */
const CAFE_NFC = 'caf\u00e9.txt';
const CAFE_NFD = 'cafe\u0301.txt';
const APFEL = '\u00c4pfel.txt';
const UNICODE_FOLDER = '\u00dcn\u00efc\u00f8d\u00e9 \u76ee\u5f55';
const ZWSP = '\u200b';
const url = (name: string) => encodeURIComponent(name);

/** A WebDAV client signed in with the account's own password (app passwords are not what this file is about). */
function davClientFor(server: TestServer, user: { email: string; password: string }) {
  const auth = basicAuth(user.email, user.password);
  return (method: string, rawPath: string, options: { headers?: Record<string, string>; body?: string } = {}) =>
    davRequest(server, method, rawPath, { ...options, auth });
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('WebDAV with names outside ASCII', () => {
  it('finds Äpfel.txt again after PUT: GET, DELETE and a second PUT', async () => {
    const dav = davClientFor(server, await createUser(server));
    expect((await dav('PUT', `/dav/${url(APFEL)}`, { body: 'apples' })).status).toBe(201);
    const got = await dav('GET', `/dav/${url(APFEL)}`);
    expect(got.status).toBe(200);
    expect(got.text).toBe('apples');
    // Another case of the same name is the same file, as for ASCII names.
    expect((await dav('GET', `/dav/${url('\u00e4PFEL.TXT')}`)).text).toBe('apples');
    expect((await dav('PUT', `/dav/${url(APFEL)}`, { body: 'more apples' })).status).toBe(204);
    expect((await dav('GET', `/dav/${url(APFEL)}`)).text).toBe('more apples');
    expect((await dav('DELETE', `/dav/${url(APFEL)}`)).status).toBe(204);
    expect((await dav('GET', `/dav/${url(APFEL)}`)).status).toBe(404);
    expect((await dav('PUT', `/dav/${url(APFEL)}`, { body: 'again' })).status).toBe(201);
  });

  it(`keeps files inside a folder named ${UNICODE_FOLDER}`, async () => {
    const user = await createUser(server);
    const dav = davClientFor(server, user);
    expect((await dav('MKCOL', `/dav/${url(UNICODE_FOLDER)}`)).status).toBe(201);
    for (const name of ['one.txt', APFEL])
      expect((await dav('PUT', `/dav/${url(UNICODE_FOLDER)}/${url(name)}`, { body: name })).status).toBe(201);
    expect((await dav('GET', `/dav/${url(UNICODE_FOLDER)}/${url(APFEL)}`)).text).toBe(APFEL);
    const listing = await dav('PROPFIND', `/dav/${url(UNICODE_FOLDER)}/`, { headers: { depth: '1' } });
    expect(listing.status).toBe(207);
    expect(listing.text).toContain(`/dav/${url(UNICODE_FOLDER)}/one.txt`);
    expect(await listFolders(server, user.token)).toEqual([expect.objectContaining({ name: UNICODE_FOLDER })]);
  });

  it('resolves a decomposed (Finder) path to the composed name it stored', async () => {
    const user = await createUser(server);
    const dav = davClientFor(server, user);
    expect((await dav('PUT', `/dav/${url(CAFE_NFD)}`, { body: 'coffee' })).status).toBe(201);
    expect((await listFiles(server, user.token)).map((file) => file.originalName)).toEqual([CAFE_NFC]);
    expect((await dav('GET', `/dav/${url(CAFE_NFC)}`)).text).toBe('coffee');
    expect((await dav('PUT', `/dav/${url(CAFE_NFC)}`, { body: 'tea' })).status).toBe(204);
    expect((await dav('GET', `/dav/${url(CAFE_NFD)}`)).text).toBe('tea');
    expect(await listFiles(server, user.token)).toHaveLength(1);
  });

  it('refuses invisible characters in PUT, MKCOL and a MOVE destination with 400', async () => {
    const dav = davClientFor(server, await createUser(server));
    expect((await dav('PUT', `/dav/${url(`a${ZWSP}.txt`)}`, { body: 'x' })).status).toBe(400);
    expect((await dav('MKCOL', `/dav/${url(`dir${ZWSP}`)}`)).status).toBe(400);
    expect((await dav('PUT', '/dav/plain.txt', { body: 'x' })).status).toBe(201);
    expect((await dav('MOVE', '/dav/plain.txt', { headers: { destination: `/dav/${url(`pl${ZWSP}ain.txt`)}` } })).status).toBe(400);
    expect((await dav('GET', '/dav/plain.txt')).status).toBe(200);
  });
});

describe('names that look the same', () => {
  it('stores a decomposed upload name composed, and a second one clashes with it', async () => {
    const { token } = await createUser(server);
    const first = await uploadFile(server, token, 'one', { name: CAFE_NFD });
    expect(first.status).toBe(201);
    expect(first.body.file.originalName).toBe(CAFE_NFC);
    // On Free a taken name is numbered, as for ASCII names; never a second café.txt.
    const second = await uploadFile(server, token, 'two', { name: CAFE_NFC });
    expect(second.body.file.originalName).toBe('caf\u00e9 (1).txt');
    expect((await listFiles(server, token)).map((file) => file.originalName).sort()).toEqual(['caf\u00e9 (1).txt', CAFE_NFC]);
  });

  it('answers 409 for a folder or a rename that differs from a sibling only by case or composition', async () => {
    const { token } = await createUser(server);
    await createFolder(server, token, '\u00e4pfel');
    for (const name of ['\u00c4PFEL', 'a\u0308pfel']) {
      const clash = await server.request('POST', '/api/user/folders', { token, body: { name } });
      expect(clash.status, name).toBe(409);
    }
    const lower = (await uploadFile(server, token, 'a', { name: '\u00e4pfel.txt' })).body.file;
    const other = (await uploadFile(server, token, 'b', { name: 'other.txt' })).body.file;
    expect((await server.request('PATCH', `/api/files/${other.id}`, { token, body: { name: '\u00c4PFEL.txt' } })).status).toBe(409);
    // Its own name in another case is a rename, not a clash.
    const recased = await server.request('PATCH', `/api/files/${lower.id}`, { token, body: { name: 'A\u0308PFEL.txt' } });
    expect(recased.status).toBe(200);
    expect(recased.body.file.originalName).toBe('\u00c4PFEL.txt');
    expect((await uploadFile(server, token, 'c', { name: '\u00e4pfel.TXT' })).body.file.originalName).toBe('\u00e4pfel (1).TXT');
  });

  it('refuses a zero-width space, a soft hyphen or a byte order mark with a readable 400', async () => {
    const { token } = await createUser(server);
    for (const name of [`a${ZWSP}b`, 'in\u00advoice', '\ufeffreport']) {
      const folder = await server.request('POST', '/api/user/folders', { token, body: { name } });
      expect(folder.status).toBe(400);
      expect(folder.body).toEqual({ code: 'INVALID_NAME', error: expect.stringMatching(/invisible/) });
      const upload = await uploadFile(server, token, 'x', { name: `${name}.txt` });
      expect(upload.status).toBe(400);
      expect(upload.body.code).toBe('INVALID_NAME');
    }
    const file = (await uploadFile(server, token, 'x', { name: 'ok.txt' })).body.file;
    expect((await server.request('PATCH', `/api/files/${file.id}`, { token, body: { name: `o${ZWSP}k.txt` } })).status).toBe(400);
    expect(await listFolders(server, token)).toEqual([]);
    expect((await listFiles(server, token)).map((one) => one.originalName)).toEqual(['ok.txt']);
  });

  it("applies the same rule to a tus upload's name, a folder rename and a WebDAV COPY destination", async () => {
    const user = await createUser(server);
    const tus = (name: string, headers: Record<string, string> = {}) =>
      fetch(`${server.url}/api/uploads`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${user.token}`,
          'tus-resumable': '1.0.0',
          'upload-length': '3',
          'upload-metadata': `filename ${Buffer.from(name).toString('base64')}`,
          ...headers,
        },
      });
    const refused = await tus(`t${ZWSP}.txt`);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'INVALID_NAME' });
    const created = await tus(CAFE_NFD);
    expect(created.status).toBe(201);
    const finished = await fetch(new URL(created.headers.get('location') as string, server.url), {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${user.token}`,
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body: 'abc',
    });
    expect(finished.status).toBe(204);
    expect((await listFiles(server, user.token)).map((file) => file.originalName)).toEqual([CAFE_NFC]);

    const folder = await createFolder(server, user.token, 'Docs');
    await createFolder(server, user.token, '\u00c9t\u00e9');
    expect(
      (await server.request('PATCH', `/api/user/folders/${folder.id}`, { token: user.token, body: { name: `Do${ZWSP}cs` } })).status,
    ).toBe(400);
    expect(
      (await server.request('PATCH', `/api/user/folders/${folder.id}`, { token: user.token, body: { name: 'E\u0301TE\u0301' } })).status,
    ).toBe(409);

    const dav = davClientFor(server, user);
    expect((await dav('COPY', `/dav/${url(CAFE_NFC)}`, { headers: { destination: `/dav/${url(`c${ZWSP}.txt`)}` } })).status).toBe(400);
    expect((await dav('COPY', `/dav/${url(CAFE_NFC)}`, { headers: { destination: `/dav/${url('CAFE\u0301 copy.TXT')}` } })).status).toBe(
      201,
    );
    expect((await listFiles(server, user.token)).map((file) => file.originalName)).toEqual(['CAF\u00c9 copy.TXT', CAFE_NFC]);
  });

  it('numbers a restore from Trash onto a name taken meanwhile in another case outside ASCII', async () => {
    const user = await createUser(server);
    const { token } = user;
    const folder = await createFolder(server, token, '\u00dcbung');
    const file = (await uploadFile(server, token, 'old', { name: APFEL })).body.file;
    await server.request('DELETE', `/api/user/folders/${folder.id}`, { token });
    await server.request('DELETE', `/api/files/${file.id}`, { token });
    await createFolder(server, token, '\u00fcBUNG');
    await uploadFile(server, token, 'new', { name: '\u00e4pfel.txt' });

    const restoredFolder = await server.request('POST', '/api/trash/restore', { token, body: { type: 'folder', id: folder.id } });
    expect(restoredFolder.body.folder).toMatchObject({ id: folder.id, name: '\u00dcbung (1)' });
    const restoredFile = await server.request('POST', '/api/trash/restore', { token, body: { type: 'file', id: file.id } });
    expect(restoredFile.body.file).toMatchObject({ id: file.id, originalName: '\u00c4pfel (1).txt' });
    // Restored under its new name, the file is found by it.
    expect((await davClientFor(server, user)('GET', `/dav/${url('\u00e4PFEL (1).TXT')}`)).text).toBe('old');
  });

  it('keeps emoji sequences and Persian joiners, whose invisible characters are seen', async () => {
    const { token } = await createUser(server);
    for (const name of [
      '\u2764\ufe0f photos',
      '\u{1F468}\u200d\u{1F469}\u200d\u{1F467} holiday',
      '\u0646\u0627\u0645\u0647\u200c\u0647\u0627',
    ]) {
      expect((await createFolder(server, token, name)).name).toBe(name);
    }
  });

  it('makes a new version on Business when the new name differs only by case outside ASCII', async () => {
    const user = await createUser(server);
    await subscribe(server, user.token, 'PREMIUM');
    const first = (await uploadFile(server, user.token, 'first', { name: APFEL })).body.file;
    server.clock.advance(1000);
    const second = await uploadFile(server, user.token, 'second', { name: '\u00e4PFEL.txt' });
    expect(second.body.file.id).toBe(first.id);
    expect((await downloadFile(server, user.token, first.id)).bytes.toString()).toBe('second');
    expect((await server.request('GET', `/api/files/${first.id}/versions`, { token: user.token })).body.versions).toHaveLength(1);
    const dav = davClientFor(server, user);
    server.clock.advance(1000);
    expect((await dav('PUT', `/dav/${url('A\u0308PFEL.TXT')}`, { body: 'third' })).status).toBe(204);
    expect((await server.request('GET', `/api/files/${first.id}/versions`, { token: user.token })).body.versions).toHaveLength(2);
  });
});

describe('names stored before the rule', () => {
  it('are composed and keyed by the migration; a clash it meets is renamed as the app numbers clashes', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-names-migration-'));
    const database = await createTestDatabase();
    const handle = openDatabase({ databaseUrl: database.url, dataDir });
    const db = handle.db as unknown as Kysely<any>;
    try {
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrationsFor(handle.dialect) } });
      expect((await migrator.migrateTo('2026-11-24-23-file-name-search-walk')).error).toBeUndefined();
      const now = '2026-01-01T00:00:00.000Z';
      const later = '2026-01-02T00:00:00.000Z';
      await db
        .insertInto('users')
        .values({ id: 'u', email: 'u@example.com', first_name: 'U', last_name: 'U', password_hash: 'x', created_at: now, updated_at: now })
        .execute();
      const folder = (id: string, name: string, createdAt = now, deletedAt: string | null = null) => ({
        id,
        user_id: 'u',
        parent_id: null,
        name,
        created_at: createdAt,
        updated_at: createdAt,
        deleted_at: deletedAt,
        trashed_root: 0,
      });
      const file = (id: string, name: string, createdAt = now) => ({
        id,
        user_id: 'u',
        folder_id: null,
        name,
        mimetype: 'text/plain',
        category: 'document',
        size: 1,
        sha256: 'a'.repeat(64),
        crc32: 0,
        blob_key: `blob-${id}`,
        created_at: createdAt,
        updated_at: createdAt,
        deleted_at: null,
        trashed_root: 0,
      });
      // PostgreSQL's lower() folds Ä already, so there only SQLite can hold äpfel and Äpfel side by side.
      const sqliteOnly = handle.dialect === 'sqlite' ? [folder('f3', '\u00c4pfel', later)] : [];
      await db
        .insertInto('folders')
        .values([folder('f1', 'Cafe\u0301'), folder('f2', '\u00e4pfel'), ...sqliteOnly, folder('f4', 'a\u0308pfel', later, later)])
        .execute();
      const files = [file('a', CAFE_NFC), file('b', CAFE_NFD, later), file('c', 'Caf\u00e9 (1).txt'), file('d', 'plain.txt')];
      await db.insertInto('files').values(files).execute();

      await migrateToLatest(handle.db, handle.dialect);

      const names = async (table: 'files' | 'folders') =>
        Object.fromEntries(
          (await db.selectFrom(table).select(['id', 'name', 'name_key']).orderBy('id').execute()).map((row) => [
            row.id,
            [row.name, row.name_key],
          ]),
        );
      expect(await names('folders')).toEqual({
        f1: ['Caf\u00e9', 'caf\u00e9'],
        f2: ['\u00e4pfel', '\u00e4pfel'],
        ...(handle.dialect === 'sqlite' ? { f3: ['\u00c4pfel (1)', '\u00e4pfel (1)'] } : {}),
        f4: ['\u00e4pfel', '\u00e4pfel'],
      });
      expect(await names('files')).toEqual({
        a: [CAFE_NFC, CAFE_NFC],
        b: ['caf\u00e9 (2).txt', 'caf\u00e9 (2).txt'],
        c: ['Caf\u00e9 (1).txt', 'caf\u00e9 (1).txt'],
        d: ['plain.txt', 'plain.txt'],
      });
      // A row written without its key is refused, not left where no lookup by name finds it.
      await expect(db.insertInto('folders').values(folder('f5', 'keyless')).execute()).rejects.toThrow(/name_key/);
    } finally {
      await handle.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe.runIf(davClientTestsRun('rclone'))('rclone with names outside ASCII', () => {
  it(`copies a tree with a folder ${UNICODE_FOLDER} up and back`, { timeout: 120_000 }, async () => {
    requireDavClient('rclone');
    const workDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-names-rclone-'));
    try {
      const user = await createUser(server);
      const obscured = await runTool('rclone', ['obscure', user.password]);
      const env = {
        RCLONE_CONFIG_CLOUD_TYPE: 'webdav',
        RCLONE_CONFIG_CLOUD_URL: `${server.url}/dav/`,
        RCLONE_CONFIG_CLOUD_VENDOR: 'owncloud',
        RCLONE_CONFIG_CLOUD_USER: user.email,
        RCLONE_CONFIG_CLOUD_PASS: obscured.stdout.trim(),
      };
      const rclone = async (...args: string[]) => {
        const run = await runTool('rclone', ['--config', '/dev/null', '--low-level-retries', '1', '--retries', '1', ...args], {
          env,
          timeoutMs: 100_000,
        });
        if (run.code !== 0) throw new Error(`rclone ${args.join(' ')} exited ${run.code}:\n${run.stderr.slice(-4000)}`);
      };
      const source = path.join(workDir, 'source');
      await mkdir(path.join(source, UNICODE_FOLDER, '\u00c9T\u00c9'), { recursive: true });
      for (const name of ['one.txt', APFEL, '\u00c9T\u00c9/deep.txt'])
        await writeFile(path.join(source, UNICODE_FOLDER, name), `content of ${name}`);
      await rclone('copy', source, 'cloud:tree');
      await rclone('check', source, 'cloud:tree', '--download');
      const back = path.join(workDir, 'back');
      await rclone('copy', 'cloud:tree', back);
      const copied = (await readdir(back, { recursive: true })).sort();
      expect(copied).toEqual((await readdir(source, { recursive: true })).sort());
      expect(await readFile(path.join(back, UNICODE_FOLDER, APFEL), 'utf8')).toBe(`content of ${APFEL}`);
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  });
});

describe('name keys after every route above', () => {
  it('match their names, and db:check finds one written without its key', async () => {
    const { db } = server.container.database;
    const stale = async () => {
      const found = [];
      for await (const row of findStaleNameKeys(db)) found.push(row);
      return found;
    };
    expect(await stale()).toEqual([]);
    const { token } = await createUser(server);
    const folder = await createFolder(server, token, 'Before');
    await db.updateTable('folders').set({ name: 'After' }).where('id', '=', folder.id).execute();
    expect(await stale()).toEqual([{ table: 'folders', id: folder.id, name: 'After' }]);
    await db.updateTable('folders').set({ name_key: 'after' }).where('id', '=', folder.id).execute();
  });
});
