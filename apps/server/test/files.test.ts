import { createHash, randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFolder, downloadFile, uploadFile } from '@cloudvault/test-support/drive';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { assertStorageConsistent, storageTotals } from './helpers/storage-totals.ts';
import { native, NATIVE_ON, SENDS_FILES } from './helpers/native.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('upload and download', () => {
  it('stores the exact bytes, lists the file in its folder and counts its size', async () => {
    const { token, user } = await createUser(server);
    const folder = await createFolder(server, token, 'Docs');
    const bytes = randomBytes(300_000);
    const upload = await uploadFile(server, token, bytes, { name: 'report.pdf', type: 'application/pdf', folderId: folder.id });

    expect(upload.status).toBe(201);
    expect(upload.body.file).toEqual({
      id: expect.any(String),
      originalName: 'report.pdf',
      mimetype: 'application/pdf',
      size: 300_000,
      sizeFormatted: '292.97 KB',
      folderId: folder.id,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      preview: 'pdf',
      contentTag: sha256(bytes).slice(0, 16),
      contentHash: sha256(bytes),
    });
    const listing = await server.request('GET', `/api/files?folderId=${folder.id}`, { token });
    expect(listing.body.files).toEqual([upload.body.file]);
    expect((await server.request('GET', '/api/files', { token })).body.files).toEqual([]);

    const download = await downloadFile(server, token, upload.body.file.id);
    expect(download.status).toBe(200);
    expect(sha256(download.bytes)).toBe(sha256(bytes));
    expect(download.headers.get('content-length')).toBe('300000');
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
    expect(download.headers.get('etag')).toBe(`"${sha256(bytes)}"`);
    expect(download.headers.get('accept-ranges')).toBe('bytes');
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');

    const dashboard = await server.request('GET', '/api/user/dashboard', { token });
    expect(dashboard.body.storageInfo).toEqual({
      storageUsed: 300_000,
      storageLimit: 524288000,
      storageUsedFormatted: '292.97 KB',
      storageLimitFormatted: '500 MB',
      plan: 'FREE',
    });
    expect(await assertStorageConsistent(server, user.id)).toEqual({ used: 300_000, sum: 300_000 });
  });

  it('streams a 150 MB file from disk and back unchanged', async () => {
    const { token, user } = await createUser(server);
    await server.container.database.db.updateTable('users').set({ plan_id: 'PRO' }).where('id', '=', user.id).execute();
    const file = path.join(server.dataDir, 'big-upload.bin');
    const bytes = randomBytes(150 * 1024 * 1024);
    await writeFile(file, bytes);
    const upload = await uploadFile(server, token, { path: file }, { name: 'big.bin' });
    expect(upload.status).toBe(201);
    const download = await downloadFile(server, token, upload.body.file.id);
    expect(sha256(download.bytes)).toBe(sha256(bytes));
  });

  it('answers HEAD with the headers alone, and lets a client leave midway without an error or a stuck file', async () => {
    const { token, user } = await createUser(server);
    await server.container.database.db.updateTable('users').set({ plan_id: 'PRO' }).where('id', '=', user.id).execute();
    const bytes = randomBytes(40 * 1024 * 1024);
    const { body } = await uploadFile(server, token, bytes, { name: 'left.bin' });
    const id = body.file.id;

    const head = await fetch(`${server.url}/api/files/${id}/download`, { method: 'HEAD', headers: { authorization: `Bearer ${token}` } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(bytes.length));
    expect(head.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect((await head.arrayBuffer()).byteLength).toBe(0);

    const received = await new Promise<number>((resolve, reject) => {
      const request = http.get(`${server.url}/api/files/${id}/download`, { headers: { authorization: `Bearer ${token}` } }, (response) => {
        response.once('data', (chunk: Buffer) => {
          request.destroy();
          resolve(chunk.length);
        });
      });
      request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
    });
    expect(received).toBeLessThan(bytes.length);
    await expect.poll(() => server.logs().includes('download stopped by the client'), { timeout: 5000 }).toBe(true);
    expect(server.logs()).not.toContain('download failed');

    const again = await downloadFile(server, token, id);
    expect(sha256(again.bytes)).toBe(sha256(bytes));
  });

  it('answers ranges with 206, an unsatisfiable range with 416 and a matching ETag with 304', async () => {
    const { token } = await createUser(server);
    const bytes = randomBytes(1000);
    const { body } = await uploadFile(server, token, bytes, { name: 'r.bin' });
    const id = body.file.id;

    const middle = await downloadFile(server, token, id, { range: 'bytes=100-199' });
    expect(middle.status).toBe(206);
    expect(middle.headers.get('content-range')).toBe('bytes 100-199/1000');
    expect(middle.bytes.equals(bytes.subarray(100, 200))).toBe(true);
    const tail = await downloadFile(server, token, id, { range: 'bytes=-10' });
    expect(tail.bytes.equals(bytes.subarray(990))).toBe(true);
    const beyond = await downloadFile(server, token, id, { range: 'bytes=1000-' });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe('bytes */1000');
    const cached = await downloadFile(server, token, id, { 'if-none-match': `"${sha256(bytes)}"` });
    expect(cached.status).toBe(304);
    expect(cached.bytes.length).toBe(0);
  });

  it('answers ranges of a large file byte for byte, local ones of 1 MiB and more through sendfile', async () => {
    const { token } = await createUser(server);
    const bytes = randomBytes(5 * 1024 * 1024 + 3);
    const { body } = await uploadFile(server, token, bytes, { name: 'large.bin' });
    const sends = vi.spyOn(native, 'send');
    try {
      for (const [start, end] of [
        [1, 4 * 1024 * 1024],
        [3 * 1024 * 1024, bytes.length - 1],
        [0, 65_535],
      ] as const) {
        const part = await downloadFile(server, token, body.file.id, { range: `bytes=${start}-${end}` });
        expect(part.status).toBe(206);
        expect(part.headers.get('content-range')).toBe(`bytes ${start}-${end}/${bytes.length}`);
        expect(part.bytes.equals(bytes.subarray(start, end + 1))).toBe(true);
      }
      // Blobs in S3 have no file to send, nor has a server without the addon; the 64 KiB range goes through buffers.
      expect(sends).toHaveBeenCalledTimes(SENDS_FILES ? 2 : 0);
    } finally {
      sends.mockRestore();
    }
  });

  it('hashes uploads on the thread pool and writes local ones with the addon, or neither under CLOUDVAULT_NATIVE=0', async () => {
    const { token } = await createUser(server);
    const bytes = randomBytes(5 * 1024 * 1024);
    const hashes = vi.spyOn(native, 'updateHasher');
    const writes = vi.spyOn(native, 'writeFile');
    try {
      const { status, body } = await uploadFile(server, token, bytes, { name: 'hashed.bin' });
      expect(status).toBe(201);
      expect((await downloadFile(server, token, body.file.id)).bytes.equals(bytes)).toBe(true);
      expect(hashes.mock.calls.length > 0).toBe(NATIVE_ON);
      // S3 blobs are not written to a local file.
      expect(writes.mock.calls.length > 0).toBe(NATIVE_ON && process.env.TEST_STORAGE !== 's3');
    } finally {
      hashes.mockRestore();
      writes.mockRestore();
    }
  });

  it('never serves uploaded HTML, SVG or script as something a browser would run', async () => {
    const { token } = await createUser(server);
    for (const [name, type] of [
      ['page.html', 'text/html'],
      ['image.svg', 'image/svg+xml'],
      ['app.js', 'text/javascript'],
      ['doc.xml', 'application/xml'],
    ]) {
      const { body } = await uploadFile(server, token, '<script>alert(1)</script>', { name, type });
      const download = await downloadFile(server, token, body.file.id);
      expect(download.headers.get('content-type')).toBe('application/octet-stream');
      expect(download.headers.get('content-disposition')).toMatch(/^attachment;/);
      expect(download.headers.get('content-security-policy')).toContain('sandbox');
    }
  });

  it('keeps unicode and quotes in names, strips separators and control characters, refuses dot names', async () => {
    const { token } = await createUser(server);
    const unicode = await uploadFile(server, token, 'x', { name: 'Ünïcödé "quoted" 日本.txt' });
    expect(unicode.body.file.originalName).toBe('Ünïcödé "quoted" 日本.txt');
    const download = await downloadFile(server, token, unicode.body.file.id);
    expect(download.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('Ünïcödé "quoted" 日本.txt')}`);
    const slashes = await uploadFile(server, token, 'x', { name: 'a\u0001b.txt' });
    expect(slashes.body.file.originalName).toBe('ab.txt');
    const dots = await uploadFile(server, token, 'x', { name: '..' });
    expect(dots.status).toBe(400);
  });

  it('strips bidirectional controls from uploaded and renamed names, so none reads backwards', async () => {
    const { token } = await createUser(server);
    const disguised = await uploadFile(server, token, 'x', { name: 'invoice\u202Efdp.exe' });
    expect(disguised.status).toBe(201);
    expect(disguised.body.file.originalName).toBe('invoicefdp.exe');
    const renamed = await server.request('PATCH', `/api/files/${disguised.body.file.id}`, {
      token,
      body: { name: '\u2067report\u2069\u200f\u061c\u200e\u202a\u202b\u202c\u202d\u2066\u2068.txt' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.file.originalName).toBe('report.txt');
    expect((await uploadFile(server, token, 'x', { name: '\u202E\u202E' })).status).toBe(400);
  });

  it('numbers a clashing name and falls back to the extension for the type', async () => {
    const { token } = await createUser(server);
    const names = [];
    for (let i = 0; i < 3; i += 1) {
      names.push((await uploadFile(server, token, 'same', { name: 'photo.jpg' })).body.file.originalName);
    }
    expect(names).toEqual(['photo.jpg', 'photo (1).jpg', 'photo (2).jpg']);
    const typed = await uploadFile(server, token, 'x', { name: 'song.mp3' });
    expect(typed.body.file.mimetype).toBe('audio/mpeg');
  });

  it('refuses a request without a file, with two files, or not multipart, leaving nothing stored', async () => {
    const { token, user } = await createUser(server);
    const noFile = new FormData();
    noFile.append('folderId', 'null');
    const none = await fetch(`${server.url}/api/files/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: noFile,
    });
    expect(none.status).toBe(400);

    const two = new FormData();
    two.append('file', new Blob(['one']), 'one.txt');
    two.append('file', new Blob(['two']), 'two.txt');
    const twoFiles = await fetch(`${server.url}/api/files/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: two,
    });
    expect(twoFiles.status).toBe(400);
    expect(((await twoFiles.json()) as { error: string }).error).toBe('Send one file per upload');

    const json = await server.request('POST', '/api/files/upload', { token, body: { file: 'x' } });
    expect(json.status).toBe(400);
    expect((await server.request('GET', '/api/files', { token })).body.files).toEqual([]);
    expect(await assertStorageConsistent(server, user.id)).toEqual({ used: 0, sum: 0 });
  });

  it('answers a malformed or late-failing multipart body with 400 and keeps nothing it stored', async () => {
    const { token, user } = await createUser(server);
    const send = (body: string, contentType: string) =>
      fetch(`${server.url}/api/files/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
        body,
      });
    const boundary = 'b0undary';
    const filePart = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello world\r\n`;
    const late = await send(
      `${filePart}--${boundary}\r\nContent-Disposition: form-data; name="folderId"\r\n\r\nnull\r\n--${boundary}--\r\n`,
      `multipart/form-data; boundary=${boundary}`,
    );
    expect(late.status).toBe(400);
    expect(((await late.json()) as { error: string }).error).toBe('folderId must come before the file');
    const truncated = await send(
      `${filePart}--${boundary}\r\nContent-Disposition: form-data; name="x"\r\n\r\nunfinished`,
      `multipart/form-data; boundary=${boundary}`,
    );
    expect(truncated.status).toBe(400);
    const noBoundary = await send('whatever', 'multipart/form-data');
    expect(noBoundary.status).toBe(400);
    // busboy takes a binary part without a filename as a file too.
    const noFileName = await send(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"\r\nContent-Type: application/octet-stream\r\n\r\nhello\r\n--${boundary}--\r\n`,
      `multipart/form-data; boundary=${boundary}`,
    );
    expect(noFileName.status).toBe(400);
    expect((await server.request('GET', '/api/files', { token })).body.files).toEqual([]);
    expect(await assertStorageConsistent(server, user.id)).toEqual({ used: 0, sum: 0 });
  });

  it("answers a fault of the server during an upload with 500, not as the client's fault, and keeps nothing", async () => {
    const { token, user } = await createUser(server);
    // The store reads the whole body, then the disk fills up, as a real write would fail.
    const put = vi.spyOn(server.container.blobs, 'put').mockImplementationOnce(async (_key, body) => {
      for await (const _chunk of body) {
        // read to the end
      }
      throw Object.assign(new Error('write failed: No space left on device'), { code: 'ENOSPC' });
    });
    try {
      const upload = await uploadFile(server, token, Buffer.alloc(64 * 1024, 1), { name: 'full-disk.bin' });
      expect(upload.status).toBe(500);
      expect(upload.body).toEqual({ error: 'Something went wrong on our side. Please try again.', code: 'INTERNAL' });
      expect(server.logs()).toMatch(/No space left on device/);
    } finally {
      put.mockRestore();
    }
    expect((await server.request('GET', '/api/files', { token })).body.files).toEqual([]);
    expect(await assertStorageConsistent(server, user.id)).toEqual({ used: 0, sum: 0 });
  });

  it('answers upload-config from the plan', async () => {
    const { token } = await createUser(server);
    const config = await server.request('GET', '/api/files/upload-config', { token });
    expect(config.body).toEqual({ userMaxFileSize: 107374182, userMaxFileSizeFormatted: '102.4 MB', userPlan: 'FREE' });
  });
});

describe('limits', () => {
  it('refuses a file over the plan maximum with 413 and keeps nothing', async () => {
    const fresh = await startTestServer();
    try {
      const { token, user } = await createUser(fresh);
      const file = path.join(fresh.dataDir, 'too-big.bin');
      await writeFile(file, Buffer.alloc(107374182 + 1));
      const upload = await uploadFile(fresh, token, { path: file }, { name: 'too-big.bin' });
      expect(upload.status).toBe(413);
      expect(upload.body.error).toMatch(/102\.4 MB per-file limit of the Free plan/);
      expect(await assertStorageConsistent(fresh, user.id)).toEqual({ used: 0, sum: 0 });
      expect(await fresh.blobCount()).toBe(0);
    } finally {
      await fresh.close();
    }
  });

  it('never lets concurrent uploads together pass the quota', async () => {
    const plansFile = path.join(server.dataDir, 'tiny-plans.json');
    await writeFile(
      plansFile,
      JSON.stringify([
        {
          id: 'FREE',
          name: 'Free',
          price: 0,
          description: 'tiny',
          features: [],
          popular: false,
          storageLimit: 1_000_000,
          maxFileSize: 500_000,
          prioritySupport: false,
          maxConcurrentUploads: null,
          capabilities: { passwordProtectedLinks: false, maxShareExpiryHours: 24, versioning: false, analytics: false },
        },
      ]),
    );
    const tiny = await startTestServer({ env: { PLANS_FILE: plansFile } });
    try {
      const { token, user } = await createUser(tiny);
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) => uploadFile(tiny, token, randomBytes(150_000), { name: `part-${i}.bin` })),
      );
      const statuses = results.map((result) => result.status);
      expect(statuses.filter((status) => status === 201).length).toBeGreaterThan(0);
      expect(statuses.filter((status) => status === 507).length).toBeGreaterThan(0);
      expect(statuses.every((status) => status === 201 || status === 507)).toBe(true);
      const refused = results.find((result) => result.status === 507);
      expect(refused?.body.error).toMatch(/^Not enough storage: .* free of your 976.56 KB/);

      const listed = (await tiny.request('GET', '/api/files', { token })).body.files as Array<{ size: number }>;
      const sum = listed.reduce((total, file) => total + file.size, 0);
      expect(sum).toBeLessThanOrEqual(1_000_000);
      expect(await assertStorageConsistent(tiny, user.id)).toEqual({ used: sum, sum });
    } finally {
      await tiny.close();
    }
  });

  it('limits uploads at once to the plan, and an aborted upload leaves nothing stored or counted', async () => {
    const { token, user } = await createUser(server);
    const boundary = 'cloudvault-test-boundary';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const declared = head.length + 10_000_000 + `\r\n--${boundary}--\r\n`.length;
    const slow = http.request(`${server.url}/api/files/upload`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': declared,
      },
    });
    slow.on('error', () => {});
    slow.write(head);
    slow.write(randomBytes(1_000_000));

    // Free runs 3 uploads at once: hold two more slots with slow requests too.
    const holders = [slow];
    for (let i = 0; i < 2; i += 1) {
      const holder = http.request(`${server.url}/api/files/upload`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': declared,
        },
      });
      holder.on('error', () => {});
      holder.write(head);
      holder.write(randomBytes(100_000));
      holders.push(holder);
    }
    // Each holder reserves its declared length once it has its slot: wait until all three have.
    await expect.poll(async () => (await storageTotals(server, user.id)).used, { timeout: 5000 }).toBe(3 * declared);
    const fourth = await uploadFile(server, token, 'x', { name: 'fourth.txt' });
    expect(fourth.status).toBe(429);

    for (const holder of holders) holder.destroy();
    // The server notices the aborts and cleans up; poll the outside-visible state.
    await expect.poll(async () => (await storageTotals(server, user.id)).used, { timeout: 5000 }).toBe(0);
    expect(await assertStorageConsistent(server, user.id)).toEqual({ used: 0, sum: 0 });
    const after = await uploadFile(server, token, 'ok', { name: 'after.txt' });
    expect(after.status).toBe(201);
    // Logged as routine, not as a malformed body.
    await expect.poll(() => server.logs().split('upload stopped by the client').length - 1).toBe(3);
  });
});

describe('search, rename and move', () => {
  it('searches names across folders case-insensitively, with % and _ matching only themselves', async () => {
    const { token } = await createUser(server);
    const folder = await createFolder(server, token, 'Deep');
    await uploadFile(server, token, 'a', { name: 'Budget 2026.xlsx' });
    await uploadFile(server, token, 'b', { name: 'old budget.txt', folderId: folder.id });
    await uploadFile(server, token, 'c', { name: '100% done.txt' });
    await uploadFile(server, token, 'd', { name: 'file_1.txt' });
    await uploadFile(server, token, 'e', { name: 'file11.txt' });

    const budget = await server.request('GET', '/api/files?search=BUDGET', { token });
    expect(budget.body.files.map((f: { originalName: string }) => f.originalName)).toEqual(['Budget 2026.xlsx', 'old budget.txt']);
    expect(budget.body.files.find((f: { originalName: string }) => f.originalName === 'old budget.txt').folderId).toBe(folder.id);
    const percent = await server.request('GET', `/api/files?search=${encodeURIComponent('0%')}`, { token });
    expect(percent.body.files.map((f: { originalName: string }) => f.originalName)).toEqual(['100% done.txt']);
    const underscore = await server.request('GET', '/api/files?search=file_', { token });
    expect(underscore.body.files.map((f: { originalName: string }) => f.originalName)).toEqual(['file_1.txt']);
  });

  it('renames and moves a file, answering 409 on a taken name', async () => {
    const { token } = await createUser(server);
    const folder = await createFolder(server, token, 'Target');
    const a = (await uploadFile(server, token, 'a', { name: 'a.txt' })).body.file;
    await uploadFile(server, token, 'b', { name: 'b.txt', folderId: folder.id });

    const renamed = await server.request('PATCH', `/api/files/${a.id}`, { token, body: { name: 'b.txt' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.file.originalName).toBe('b.txt');
    const clash = await server.request('PATCH', `/api/files/${a.id}`, { token, body: { folderId: folder.id } });
    expect(clash.status).toBe(409);
    const moved = await server.request('PATCH', `/api/files/${a.id}`, { token, body: { folderId: folder.id, name: 'c.txt' } });
    expect(moved.body.file).toMatchObject({ folderId: folder.id, originalName: 'c.txt' });
  });
});

describe('isolation between users', () => {
  it("answers 404 on every route for another user's file, and never lets them upload into another's folder", async () => {
    const owner = await createUser(server);
    const intruder = await createUser(server);
    const folder = await createFolder(server, owner.token, 'Private');
    const file = (await uploadFile(server, owner.token, 'secret', { name: 'secret.txt', folderId: folder.id })).body.file;
    const t = intruder.token;

    expect((await downloadFile(server, t, file.id)).status).toBe(404);
    for (const response of [
      await server.request('PATCH', `/api/files/${file.id}`, { token: t, body: { name: 'x.txt' } }),
      await server.request('DELETE', `/api/files/${file.id}`, { token: t }),
      await server.request('GET', `/api/files?folderId=${folder.id}`, { token: t }),
      await server.request('DELETE', `/api/user/folders/${folder.id}`, { token: t }),
      await server.request('POST', '/api/trash/restore', { token: t, body: { type: 'file', id: file.id } }),
    ]) {
      expect(response.status).toBe(404);
    }
    const into = await uploadFile(server, t, 'x', { name: 'planted.txt', folderId: folder.id });
    expect(into.status).toBe(404);
    const own = (await uploadFile(server, t, 'x', { name: 'mine.txt' })).body.file;
    const moveInto = await server.request('PATCH', `/api/files/${own.id}`, { token: t, body: { folderId: folder.id } });
    expect(moveInto.status).toBe(404);
    expect((await server.request('GET', `/api/files?folderId=${folder.id}`, { token: owner.token })).body.files).toHaveLength(1);
    expect((await server.request('GET', '/api/files?search=secret', { token: t })).body.files).toEqual([]);
  });
});

describe('Trash', () => {
  it('moves a folder with its subtree to Trash, restores it whole, and empties it freeing storage and bytes', async () => {
    const { token, user } = await createUser(server);
    const top = await createFolder(server, token, 'Top');
    const inner = await createFolder(server, token, 'Inner', top.id);
    const a = (await uploadFile(server, token, randomBytes(1000), { name: 'a.bin', folderId: top.id })).body.file;
    const b = (await uploadFile(server, token, randomBytes(2000), { name: 'b.bin', folderId: inner.id })).body.file;

    expect((await server.request('DELETE', `/api/user/folders/${top.id}`, { token })).status).toBe(200);
    expect((await server.request('GET', '/api/user/folders', { token })).body.folders).toEqual([]);
    expect((await downloadFile(server, token, b.id)).status).toBe(404);
    expect((await server.request('GET', `/api/user/folders/${inner.id}/path`, { token })).status).toBe(404);
    const trash = await server.request('GET', '/api/trash', { token });
    expect(trash.body.folders.map((f: { id: string }) => f.id)).toEqual([top.id]);
    expect(trash.body.files).toEqual([]);
    expect(trash.body.folders[0]).toMatchObject({ deletedAt: expect.any(String), purgeAt: null });
    expect(await assertStorageConsistent(server, user.id)).toEqual({ used: 3000, sum: 3000 });

    const restored = await server.request('POST', '/api/trash/restore', { token, body: { type: 'folder', id: top.id } });
    expect(restored.body.folder).toMatchObject({ id: top.id, name: 'Top', parentId: null });
    expect((await downloadFile(server, token, b.id)).status).toBe(200);
    expect((await server.request('GET', `/api/files?folderId=${top.id}`, { token })).body.files.map((f: { id: string }) => f.id)).toEqual([
      a.id,
    ]);

    await server.request('DELETE', `/api/files/${a.id}`, { token });
    await server.request('DELETE', `/api/user/folders/${top.id}`, { token });
    const blobsBefore = await server.blobCount();
    expect((await server.request('DELETE', '/api/trash', { token })).status).toBe(204);
    expect(await server.blobCount()).toBe(blobsBefore - 2);
    expect(await assertStorageConsistent(server, user.id)).toEqual({ used: 0, sum: 0 });
    expect((await server.request('GET', '/api/trash', { token })).body).toEqual({ folders: [], files: [] });
  });

  it('restores a folder whose name was taken again meanwhile as "name (1)"', async () => {
    const { token } = await createUser(server);
    const docs = await createFolder(server, token, 'Docs');
    await uploadFile(server, token, 'kept', { name: 'inside.txt', folderId: docs.id });
    await server.request('DELETE', `/api/user/folders/${docs.id}`, { token });
    await createFolder(server, token, 'docs');

    const restored = await server.request('POST', '/api/trash/restore', { token, body: { type: 'folder', id: docs.id } });
    expect(restored.status).toBe(200);
    expect(restored.body.folder).toMatchObject({ id: docs.id, name: 'Docs (1)', parentId: null });
    expect(
      (await server.request('GET', `/api/files?folderId=${docs.id}`, { token })).body.files.map(
        (f: { originalName: string }) => f.originalName,
      ),
    ).toEqual(['inside.txt']);
  });

  it('restores a file to the root when its folder is gone, numbering a clashing name', async () => {
    const { token } = await createUser(server);
    const folder = await createFolder(server, token, 'Gone');
    const file = (await uploadFile(server, token, 'x', { name: 'notes.txt', folderId: folder.id })).body.file;
    await uploadFile(server, token, 'y', { name: 'notes.txt' });
    await server.request('DELETE', `/api/files/${file.id}`, { token });
    await server.request('DELETE', `/api/user/folders/${folder.id}`, { token });

    const restored = await server.request('POST', '/api/trash/restore', { token, body: { type: 'file', id: file.id } });
    expect(restored.status).toBe(200);
    expect(restored.body.file).toMatchObject({ id: file.id, folderId: null, originalName: 'notes (1).txt' });
    const again = await server.request('POST', '/api/trash/restore', { token, body: { type: 'file', id: file.id } });
    expect(again.status).toBe(404);
  });
});

describe('signed download links', () => {
  it('lets the browser download natively with a short-lived link, Range included, and never logs the link', async () => {
    const { token } = await createUser(server);
    const bytes = randomBytes(5000);
    const file = (await uploadFile(server, token, bytes, { name: 'linked.bin' })).body.file;
    const link = await server.request('POST', `/api/files/${file.id}/download-link`, { token });
    expect(link.status).toBe(200);
    expect(link.body.url).toMatch(/^\/api\/downloads\/[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(new Date(link.body.expiresAt).getTime() - server.clock.now().getTime()).toBe(5 * 60 * 1000);

    const whole = await fetch(`${server.url}${link.body.url}`);
    expect(whole.status).toBe(200);
    expect(sha256(Buffer.from(await whole.arrayBuffer()))).toBe(sha256(bytes));
    expect(whole.headers.get('content-disposition')).toMatch(/^attachment; filename="linked.bin"/);
    const part = await fetch(`${server.url}${link.body.url}`, { headers: { range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(10, 20))).toBe(true);
    expect(server.logs()).not.toContain(link.body.url.split('/').pop());

    server.clock.advance(5 * 60 * 1000 + 1000);
    const expired = await fetch(`${server.url}${link.body.url}`);
    expect(expired.status).toBe(404);
    expect(((await expired.json()) as { error: string }).error).toMatch(/expired/);
  });

  it('gives a folder zip by link, refuses tampered links and links to items now in Trash or not yours', async () => {
    const owner = await createUser(server);
    const intruder = await createUser(server);
    const folder = await createFolder(server, owner.token, 'Zipped');
    const file = (await uploadFile(server, owner.token, 'inside', { name: 'in.txt', folderId: folder.id })).body.file;

    const folderLink = await server.request('POST', `/api/user/folders/${folder.id}/download-link`, { token: owner.token });
    const zip = await fetch(`${server.url}${folderLink.body.url}`);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(
      Buffer.from(await zip.arrayBuffer())
        .subarray(0, 4)
        .equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])),
    ).toBe(true);

    expect((await server.request('POST', `/api/files/${file.id}/download-link`, { token: intruder.token })).status).toBe(404);
    expect((await server.request('POST', `/api/user/folders/${folder.id}/download-link`, { token: intruder.token })).status).toBe(404);
    const fileLink = (await server.request('POST', `/api/files/${file.id}/download-link`, { token: owner.token })).body.url as string;
    const tampered = fileLink.slice(0, -3) + (fileLink.endsWith('AAA') ? 'BBB' : 'AAA');
    expect((await fetch(`${server.url}${tampered}`)).status).toBe(404);
    // A session token is not a download link.
    expect((await fetch(`${server.url}/api/downloads/${owner.token}`)).status).toBe(404);
    await server.request('DELETE', `/api/files/${file.id}`, { token: owner.token });
    expect((await fetch(`${server.url}${fileLink}`)).status).toBe(404);
  });
});

describe('Delete forever', () => {
  it('purges one item from Trash: a file, or a folder with everything under it, freeing storage and bytes', async () => {
    const { token, user } = await createUser(server);
    const other = await createUser(server);
    const keep = (await uploadFile(server, token, randomBytes(700), { name: 'keep.bin' })).body.file;
    const single = (await uploadFile(server, token, randomBytes(300), { name: 'single.bin' })).body.file;
    const top = await createFolder(server, token, 'Top');
    const inner = await createFolder(server, token, 'Inner', top.id);
    await uploadFile(server, token, randomBytes(1000), { name: 'a.bin', folderId: top.id });
    const early = (await uploadFile(server, token, randomBytes(2000), { name: 'early.bin', folderId: inner.id })).body.file;
    await server.request('DELETE', `/api/files/${early.id}`, { token });
    await server.request('DELETE', `/api/files/${keep.id}`, { token });
    await server.request('DELETE', `/api/files/${single.id}`, { token });
    await server.request('DELETE', `/api/user/folders/${top.id}`, { token });
    const blobsBefore = await server.blobCount();

    expect((await server.request('DELETE', `/api/trash/files/${single.id}`, { token: other.token })).status).toBe(404);
    expect((await server.request('DELETE', `/api/trash/files/${single.id}`, { token })).status).toBe(204);
    expect((await server.request('DELETE', `/api/trash/files/${single.id}`, { token })).status).toBe(404);
    expect((await server.request('DELETE', `/api/trash/folders/${top.id}`, { token })).status).toBe(204);

    const trash = await server.request('GET', '/api/trash', { token });
    expect(trash.body.folders).toEqual([]);
    expect(trash.body.files.map((file: { id: string }) => file.id)).toEqual([keep.id]);
    expect(await server.blobCount()).toBe(blobsBefore - 3);
    expect(await assertStorageConsistent(server, user.id)).toEqual({ used: 700, sum: 700 });
    expect((await server.request('DELETE', `/api/trash/files/${keep.id}`, { token: other.token })).status).toBe(404);
  });
});
