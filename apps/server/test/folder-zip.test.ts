import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFolder, uploadFile } from '@cloudvault/test-support/drive';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { holdDownload } from './helpers/held-download.ts';
import { readZip } from './helpers/read-zip.ts';
import { seedFiles, seedFolders } from './helpers/seeded-files.ts';
import { native, SENDS_FILES } from './helpers/native.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function downloadZip(token: string, id: string) {
  const response = await fetch(`${server.url}/api/user/folders/${id}/download`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe('folder zip', () => {
  it.each([
    ['deflated (compression on, the default)', true],
    ['stored (compression off)', false],
  ])('streams the folder %s with paths relative to it, empty sub-folders kept, bytes identical', async (_mode, compression) => {
    const { token } = await createUser(server);
    if (!compression) {
      const { body } = await server.request('GET', '/api/user/settings', { token });
      const put = await server.request('PUT', '/api/user/settings', {
        token,
        body: { ...body.settings, storage: { ...body.settings.storage, compressionEnabled: false } },
      });
      expect(put.status).toBe(200);
    }
    const top = (await createFolder(server, token, 'Holiday "2026"')).id;
    const photos = (await createFolder(server, token, 'Photos', top)).id;
    await createFolder(server, token, 'Empty', top);
    await createFolder(server, token, 'Deeper', photos);
    const outside = (await createFolder(server, token, 'Outside')).id;
    const a = randomBytes(200_000);
    const b = Buffer.from('plain text '.repeat(500));
    await uploadFile(server, token, a, { name: 'a.jpg', folderId: photos });
    await uploadFile(server, token, b, { name: 'notes 日本.txt', folderId: top });
    await uploadFile(server, token, 'not included', { name: 'other.txt', folderId: outside });
    const trashed = (await uploadFile(server, token, 'deleted', { name: 'gone.txt', folderId: top })).body.file;
    await server.request('DELETE', `/api/files/${trashed.id}`, { token });

    const response = await downloadZip(token, top);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="Holiday _2026_.zip"; filename*=UTF-8''Holiday%20%222026%22.zip`,
    );
    const entries = await readZip(response.bytes);
    expect([...entries.keys()].sort()).toEqual(['Empty/', 'Photos/', 'Photos/Deeper/', 'Photos/a.jpg', 'notes 日本.txt']);
    expect((entries.get('Photos/a.jpg') as Buffer).equals(a)).toBe(true);
    expect((entries.get('notes 日本.txt') as Buffer).equals(b)).toBe(true);
    // The text file shrinks to a fraction when deflated; stored, every byte is there.
    if (compression) expect(response.bytes.length).toBeLessThan(a.length + b.length);
    else expect(response.bytes.length).toBeGreaterThan(a.length + b.length);
  });

  it('writes no bidirectional control into entry names, even of names stored before they were stripped', async () => {
    const { token, user } = await createUser(server);
    const top = (await createFolder(server, token, 'Top')).id;
    const inner = (await createFolder(server, token, 'Inner', top)).id;
    const file = (await uploadFile(server, token, 'payload', { name: 'invoice.txt', folderId: inner })).body.file.id as string;
    // As an older version stored them: the API no longer lets such names in.
    const { db } = server.container.database;
    await db.updateTable('folders').set({ name: 'In\u2067ner' }).where('id', '=', inner).where('user_id', '=', user.id).execute();
    await db.updateTable('files').set({ name: 'invoice\u202Efdp.exe' }).where('id', '=', file).where('user_id', '=', user.id).execute();
    const empty = (await createFolder(server, token, 'Empty', top)).id;
    await db.updateTable('folders').set({ name: '\u202E' }).where('id', '=', empty).execute();

    const zip = await downloadZip(token, top);
    expect(zip.status).toBe(200);
    expect([...(await readZip(zip.bytes)).keys()].sort()).toEqual(['Inner/', 'Inner/invoicefdp.exe', '_/']);
  });

  it("answers 404 for another user's folder and for a folder in Trash", async () => {
    const owner = await createUser(server);
    const intruder = await createUser(server);
    const id = (await createFolder(server, owner.token, 'Mine')).id;
    expect((await downloadZip(intruder.token, id)).status).toBe(404);
    await server.request('DELETE', `/api/user/folders/${id}`, { token: owner.token });
    expect((await downloadZip(owner.token, id)).status).toBe(404);
  });

  it('gives an empty folder as a valid empty zip', async () => {
    const { token } = await createUser(server);
    const id = (await createFolder(server, token, 'Nothing')).id;
    const response = await downloadZip(token, id);
    expect(response.status).toBe(200);
    expect((await readZip(response.bytes)).size).toBe(0);
  });

  it('stores a folder of more members than one send takes, and a file over 1 MiB, byte for byte, local ones through sendfile', async () => {
    const { token, user } = await createUser(server);
    await server.container.database.db.updateTable('users').set({ plan_id: 'PRO' }).where('id', '=', user.id).execute();
    const { body } = await server.request('GET', '/api/user/settings', { token });
    await server.request('PUT', '/api/user/settings', {
      token,
      body: { ...body.settings, storage: { ...body.settings.storage, compressionEnabled: false } },
    });
    const id = (await createFolder(server, token, 'Many')).id;
    const contents = new Map<string, Buffer>([['large.bin', randomBytes(3 * 1024 * 1024)]]);
    for (let index = 0; index < 530; index += 1) contents.set(`file-${index}.txt`, randomBytes(index % 7 === 0 ? 0 : 1 + (index % 300)));
    // Put in the store and the database directly: 531 uploads took most of the test's 52 s on S3.
    await seedFiles(
      { db: server.container.database.db, blobs: server.container.blobs },
      { userId: user.id, folderId: id, files: contents },
    );
    const sends = vi.spyOn(native, 'send');
    try {
      const response = await downloadZip(token, id);
      expect(response.status).toBe(200);
      const entries = await readZip(response.bytes);
      expect(entries.size).toBe(contents.size);
      for (const [name, bytes] of contents) expect((entries.get(name) as Buffer).equals(bytes), name).toBe(true);
      // Sends of 16, 32, 64, 128 and 256 members, then the last 35 of the 531 local files;
      // blobs in S3, or no addon, go through buffers.
      expect(sends).toHaveBeenCalledTimes(SENDS_FILES ? 6 : 0);
    } finally {
      sends.mockRestore();
    }
  });
});

describe('a folder read a page at a time', () => {
  // A thousand folders (put in the database directly) and 40 MiB: seconds alone, more on a loaded machine.
  it('reads the members from the database as the zip is written, not all before its first byte', { timeout: 120_000 }, async () => {
    const { token, user } = await createUser(server);
    const top = (await createFolder(server, token, 'Archive')).id;
    // First in path order, and more than the sockets' buffers take: the zip stalls on it
    // while the client reads nothing, its first page of 1,000 members read, the second not.
    const big = randomBytes(40 * 1024 * 1024);
    await uploadFile(server, token, big, { name: 'a-big.bin', folderId: top });
    const names = Array.from({ length: 1000 }, (_, index) => `d${String(index).padStart(4, '0')}`);
    await seedFolders(server.container.database.db, { userId: user.id, parentId: top, names });
    // The response has begun (its headers are in) before anything else happens.
    const held = await holdDownload(`${server.url}/api/user/folders/${top}/download`, token);
    expect(held.status).toBe(200);

    // Uploaded once the zip has begun, and last in path order: only a later page can hold it.
    expect((await uploadFile(server, token, 'late', { name: 'zzz.txt', folderId: top })).status).toBe(201);
    held.resume();
    const entries = await readZip(await held.body);
    expect(entries.size).toBe(1002);
    expect((entries.get('a-big.bin') as Buffer).equals(big)).toBe(true);
    expect(entries.get('d0999/')).toBe('dir');
    expect(entries.get('zzz.txt')?.toString()).toBe('late');
  });
});

describe('paths too long for a zip entry', () => {
  it('refuses a folder whose deepest path exceeds 65,535 bytes with a JSON 409 before the zip starts, and zips one that fits', async () => {
    const { token } = await createUser(server);
    // 255 characters of 3 bytes each: 766 bytes a level with its '/', so 86 levels below the zipped folder pass the limit.
    const name = '界'.repeat(255);
    const top = (await createFolder(server, token, name)).id;
    let parent = top;
    const chain = [top];
    for (let level = 1; level <= 86; level += 1) {
      parent = (await createFolder(server, token, name, parent)).id;
      chain.push(parent);
    }
    // Paths are relative to the zipped folder: from the top, the deepest is 86 × 766 = 65,876 bytes.
    const refused = await downloadZip(token, top);
    expect(refused.status).toBe(409);
    expect(refused.headers.get('content-type')).toContain('application/json');
    expect(JSON.parse(refused.bytes.toString())).toMatchObject({
      code: 'PATH_TOO_LONG_FOR_ZIP',
      error: expect.stringContaining('65,535 bytes'),
    });
    const link = await server.request('POST', `/api/user/folders/${top}/download-link`, { token });
    expect((await fetch(`${server.url}${link.body.url}`)).status).toBe(409);

    // From the second level, 85 × 766 = 65,110 bytes fit: a whole zip with every level.
    const fits = await downloadZip(token, chain[1] as string);
    expect(fits.status).toBe(200);
    const entries = await readZip(fits.bytes);
    expect(entries.size).toBe(85);
    expect(Math.max(...[...entries.keys()].map((path) => Buffer.byteLength(path)))).toBe(85 * 766);

    // The folders fit, so the files decide: a short name in the deepest one still fits, a long one does not.
    const deepest = chain.at(-1) as string;
    await uploadFile(server, token, 'short', { name: 'short.txt', folderId: deepest });
    const withShort = await downloadZip(token, chain[1] as string);
    expect(withShort.status).toBe(200);
    expect((await readZip(withShort.bytes)).get(`${(name + '/').repeat(85)}short.txt`)?.toString()).toBe('short');
    // 255 characters, 761 bytes: 65,871 in all.
    expect((await uploadFile(server, token, 'long', { name: `${'界'.repeat(253)}.t`, folderId: deepest })).status).toBe(201);
    const withLong = await downloadZip(token, chain[1] as string);
    expect(withLong.status).toBe(409);
    expect(JSON.parse(withLong.bytes.toString())).toMatchObject({ code: 'PATH_TOO_LONG_FOR_ZIP' });
  });
});

describe('settings', () => {
  it('answers the defaults of docs/product.md#settings, saves the whole object and rejects unknown keys and values outside the set', async () => {
    const { token } = await createUser(server);
    const initial = await server.request('GET', '/api/user/settings', { token });
    expect(initial.body.settings).toEqual({
      notifications: { email: true, push: true, fileSharing: true, storageAlerts: true, securityAlerts: true },
      privacy: { profileVisibility: 'private', shareAnalytics: false, twoFactorAuth: false },
      appearance: { theme: 'system', language: 'en' },
      storage: { autoDelete: false, deleteAfterDays: 30, compressionEnabled: true },
      // Not in product.md: the file manager's remembered order (docs/api.md, settings).
      listing: { sort: 'name', order: 'asc' },
    });
    const changed = {
      ...initial.body.settings,
      appearance: { theme: 'dark', language: 'de' },
      storage: { autoDelete: true, deleteAfterDays: 7, compressionEnabled: false },
      privacy: { profileVisibility: 'public', shareAnalytics: true, twoFactorAuth: true },
    };
    const saved = await server.request('PUT', '/api/user/settings', { token, body: changed });
    expect(saved.status).toBe(200);
    expect(saved.body.settings).toEqual({ ...changed, privacy: { ...changed.privacy, twoFactorAuth: false } });
    expect((await server.request('GET', '/api/user/settings', { token })).body).toEqual(saved.body);

    const bad = [
      { ...changed, storage: { ...changed.storage, deleteAfterDays: 14 } },
      { ...changed, appearance: { theme: 'neon', language: 'en' } },
      { ...changed, extra: true },
      { ...changed, notifications: { ...changed.notifications, sms: true } },
      { notifications: changed.notifications },
      { ...changed, storage: { ...changed.storage, autoDelete: 'yes' } },
      { ...changed, listing: { sort: 'colour', order: 'asc' } },
    ];
    for (const body of bad) {
      const response = await server.request('PUT', '/api/user/settings', { token, body });
      expect(response.status).toBe(400);
      expect(typeof response.body.error).toBe('string');
    }
    expect((await server.request('GET', '/api/user/settings', { token })).body).toEqual(saved.body);
  });
});
