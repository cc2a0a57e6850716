import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFolder, downloadFile, listFiles } from '@cloudvault/test-support/drive';
import { createVerifiedUser } from './helpers/factories.ts';
import { assertStorageConsistent } from './helpers/storage-totals.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

// POST /api/sync/uploads (issue 39): many small files in one multipart request, each through
// the one upload path; one file's refusal is its own result, nothing of it kept.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

type Part = { meta: unknown; bytes: Buffer | string; fileName?: string } | { field: string; value: string };

/** A multipart body of `meta` fields each followed by its `file` part (or any fields given raw). */
function batch(parts: Part[]): { body: Buffer; type: string } {
  const boundary = `batch${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('field' in part) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"\r\n\r\n${part.value}\r\n`));
      continue;
    }
    const meta = typeof part.meta === 'string' ? part.meta : JSON.stringify(part.meta);
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="meta"\r\n\r\n${meta}\r\n`));
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${part.fileName ?? 'blob'}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.from(part.bytes),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

async function send(token: string, parts: Part[]) {
  const { body, type } = batch(parts);
  return server.request('POST', '/api/sync/uploads', { token, rawBody: body, headers: { 'content-type': type } });
}

/** A request whose headers alone must be refused: only its headers are sent, its answer read. */
function headersOnly(token: string, headers: Record<string, string>): Promise<{ status: number; body: { code?: string } }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${server.url}/api/sync/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=x', ...headers },
    });
    request.on('response', (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as { code?: string } });
        request.destroy();
      });
    });
    request.on('error', reject);
    request.flushHeaders();
  });
}

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

describe('batch uploads', () => {
  it('stores every file in order, each with its hash, in the folder named', async () => {
    const user = await createUser(server);
    const folder = await createFolder(server, user.token, 'Docs');
    const files = Array.from({ length: 40 }, (_, index) => ({ name: `f${index}.txt`, bytes: randomBytes(100 + index) }));
    const answer = await send(
      user.token,
      files.map((file, index) => ({
        meta: { folderId: index % 2 ? folder.id : null, name: file.name, contentHash: sha256(file.bytes) },
        bytes: file.bytes,
      })),
    );
    expect(answer.status, answer.text).toBe(200);
    const results = answer.body.results as Array<{
      file: { id: string; originalName: string; contentHash: string; folderId: string | null };
    }>;
    expect(results.map((result) => result.file.originalName)).toEqual(files.map((file) => file.name));
    results.forEach((result, index) => {
      expect(result.file.contentHash).toBe(sha256(files[index]!.bytes));
      expect(result.file.folderId).toBe(index % 2 ? folder.id : null);
    });
    const stored = await downloadFile(server, user.token, results[7]!.file.id);
    expect(stored.bytes.equals(files[7]!.bytes)).toBe(true);
    expect((await listFiles(server, user.token, folder.id)).length).toBe(20);
  });

  it('refuses single files without failing the others, and keeps nothing of a refused one', async () => {
    const user = await createUser(server);
    const other = await createUser(server);
    const theirs = await createFolder(server, other.token, 'Theirs');
    await send(user.token, [{ meta: { folderId: null, name: 'taken.txt' }, bytes: 'first' }]);
    const usedBefore = (await server.request('GET', '/api/user/dashboard', { token: user.token })).body.storageInfo;
    const blobsBefore = await server.blobCount();

    const answer = await send(user.token, [
      { meta: { folderId: null, name: 'ok-1.txt' }, bytes: 'one' },
      { meta: { folderId: null, name: 'taken.txt' }, bytes: 'second' },
      { meta: { folderId: theirs.id, name: 'x.txt' }, bytes: 'x' },
      { meta: { folderId: null, name: 'bad-hash.txt', contentHash: sha256('other') }, bytes: 'mine' },
      { meta: { folderId: null, name: '..' }, bytes: 'dots' },
      { meta: 'not json', bytes: 'nothing' },
      { meta: { folderId: null }, bytes: 'no name' },
      { meta: { folderId: null, name: 'ok-2.txt', conflict: 'keep-both' }, bytes: 'two' },
      { meta: { folderId: null, name: 'taken.txt', conflict: 'keep-both' }, bytes: 'third' },
    ]);
    expect(answer.status, answer.text).toBe(200);
    const results = answer.body.results as Array<Record<string, any>>;
    const outcome = results.map((result) => (result.file ? result.file.originalName : `${result.status} ${result.code}`));
    expect(outcome).toEqual([
      'ok-1.txt',
      '409 NAME_TAKEN',
      '404 FOLDER_NOT_FOUND',
      '400 HASH_MISMATCH',
      '400 INVALID_NAME',
      '400 INVALID_META',
      '400 INVALID_META',
      'ok-2.txt',
      'taken (1).txt',
    ]);
    const names = (await listFiles(server, user.token)).map((file) => file.originalName).sort();
    expect(names).toEqual(['ok-1.txt', 'ok-2.txt', 'taken (1).txt', 'taken.txt']);
    // Only the three kept files' bytes count and are stored (a refused file's blob is deleted).
    const usedAfter = (await server.request('GET', '/api/user/dashboard', { token: user.token })).body.storageInfo;
    expect(usedAfter.storageUsed - usedBefore.storageUsed).toBe(3 + 3 + 5);
    await expect.poll(() => server.blobCount()).toBe(blobsBefore + 3);
  });

  it("lets an editor upload into a shared folder on the owner's quota; a viewer gets 403 READ_ONLY_SHARE per file", async () => {
    const owner = await createUser(server);
    const editor = await createVerifiedUser(server);
    const viewer = await createVerifiedUser(server);
    const shared = await createFolder(server, owner.token, 'Shared');
    for (const [person, role] of [
      [editor, 'editor'],
      [viewer, 'viewer'],
    ] as const) {
      const share = await server.request('POST', `/api/user/folders/${shared.id}/share`, {
        token: owner.token,
        body: { shareType: 'private', email: person.email, role },
      });
      expect(share.status).toBeLessThan(300);
    }
    const edited = await send(editor.token, [{ meta: { folderId: shared.id, name: 'from-editor.txt' }, bytes: 'hello' }]);
    expect(edited.body.results[0].file).toMatchObject({ originalName: 'from-editor.txt', folderId: shared.id });
    const viewed = await send(viewer.token, [{ meta: { folderId: shared.id, name: 'from-viewer.txt' }, bytes: 'hello' }]);
    expect(viewed.body.results[0]).toMatchObject({ status: 403, code: 'READ_ONLY_SHARE' });
    expect((await listFiles(server, owner.token, shared.id)).map((file) => file.originalName)).toEqual(['from-editor.txt']);
  });

  it('stores a file bigger than what is read ahead, streamed, between small ones', async () => {
    const user = await createUser(server);
    const big = randomBytes(3 * 1024 * 1024 + 17);
    const answer = await send(user.token, [
      { meta: { folderId: null, name: 'a.txt' }, bytes: 'a' },
      { meta: { folderId: null, name: 'big.bin', contentHash: sha256(big) }, bytes: big },
      { meta: { folderId: null, name: 'b.txt' }, bytes: 'b' },
    ]);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.results.map((result: { file: { size: number } }) => result.file.size)).toEqual([1, big.length, 1]);
  });

  it('refuses a batch that is not one: 400 INVALID_BATCH, 400 NOT_MULTIPART, 411 without a length, 413 past the limits, 401 signed out', async () => {
    const user = await createUser(server);
    expect(await send(user.token, [{ field: 'other', value: 'x' }])).toMatchObject({ status: 400, body: { code: 'INVALID_BATCH' } });
    expect(
      await send(user.token, [
        { field: 'meta', value: '{}' },
        { field: 'meta', value: '{}' },
      ]),
    ).toMatchObject({
      status: 400,
      body: { code: 'INVALID_BATCH' },
    });
    expect(await send(user.token, [{ field: 'meta', value: '{}' }])).toMatchObject({ status: 400, body: { code: 'INVALID_BATCH' } });
    const json = await server.request('POST', '/api/sync/uploads', { token: user.token, body: { files: [] } });
    expect(json).toMatchObject({ status: 400, body: { code: 'NOT_MULTIPART' } });
    const huge = await headersOnly(user.token, { 'content-length': String(65 * 1024 * 1024) });
    expect(huge).toMatchObject({ status: 413, body: { code: 'BATCH_TOO_LARGE' } });
    const chunked = await headersOnly(user.token, { 'transfer-encoding': 'chunked' });
    expect(chunked).toMatchObject({ status: 411, body: { code: 'LENGTH_REQUIRED' } });
    const tooMany = await send(
      user.token,
      // Metas refused one by one, so the 1,001st file is reached without storing a thousand.
      Array.from({ length: 1001 }, () => ({ meta: 'x', bytes: '' })),
    );
    expect(tooMany).toMatchObject({ status: 413, body: { code: 'TOO_MANY_FILES' } });
    expect((await send('', [{ meta: { folderId: null, name: 'a' }, bytes: 'a' }])).status).toBe(401);
  });
});

describe('batch uploads listed in groups', () => {
  /** `count` small files for the caller's root, named f0.txt, f1.txt… unless `named` says otherwise. */
  const smallFiles = (count: number, named: (index: number) => string = (index) => `f${index}.txt`) =>
    Array.from({ length: count }, (_, index) => ({ meta: { folderId: null, name: named(index) }, bytes: randomBytes(50 + index) }));

  const uploadEntries = async (userId: string) =>
    server.container.database.db
      .selectFrom('activity')
      .select('details')
      .where('user_id', '=', userId)
      .where('type', '=', 'upload')
      .execute();

  it('records one activity entry for the whole batch: its first file, the count and the total size', async () => {
    const user = await createUser(server);
    const parts = smallFiles(70);
    const answer = await send(user.token, parts);
    expect(answer.status, answer.text).toBe(200);
    const entries = await uploadEntries(user.user.id);
    expect(entries.map((entry) => JSON.parse(entry.details))).toEqual([{ name: 'f0.txt', size: expect.any(String), files: '70' }]);
    await assertStorageConsistent(server, user.user.id);
  });

  it('refuses a name taken before or within the group alone: the others are kept, with exact storage and no stray blob', async () => {
    const user = await createUser(server);
    await send(user.token, [{ meta: { folderId: null, name: 'f10.txt' }, bytes: 'there before' }]);
    const blobsBefore = await server.blobCount();
    // f10.txt is taken; f20.txt is sent twice, the second one is refused.
    const parts = smallFiles(40, (index) => (index === 30 ? 'f20.txt' : `f${index}.txt`));
    const answer = await send(user.token, parts);
    expect(answer.status, answer.text).toBe(200);
    const results = answer.body.results as Array<Record<string, any>>;
    const refused = results.flatMap((result, index) => (result.file ? [] : [`${index} ${result.status} ${result.code}`]));
    expect(refused).toEqual(['10 409 NAME_TAKEN', '30 409 NAME_TAKEN']);
    expect(results[10]!.error).toContain('f10.txt');
    const stored = await downloadFile(server, user.token, results[20]!.file.id);
    expect(stored.bytes.equals(parts[20]!.bytes)).toBe(true);
    expect((await listFiles(server, user.token)).length).toBe(1 + 38);
    await assertStorageConsistent(server, user.user.id);
    await expect.poll(() => server.blobCount()).toBe(blobsBefore + 38);
  });

  it('stores the files that still fit when a group does not, one by one, and answers 507 at the first that does not', async () => {
    const user = await createUser(server);
    const { storageLimit } = (await server.request('GET', '/api/user/dashboard', { token: user.token })).body.storageInfo;
    // 100 bytes left: the group of ten 30-byte files does not fit, its first three do.
    await server.container.database.db
      .updateTable('users')
      .set({ storage_used: storageLimit - 100 })
      .where('id', '=', user.user.id)
      .execute();
    const answer = await send(
      user.token,
      Array.from({ length: 10 }, (_, index) => ({ meta: { folderId: null, name: `q${index}.txt` }, bytes: randomBytes(30) })),
    );
    // As a single upload past the quota: the request is refused with 507, the files before it kept.
    expect(answer.status, answer.text).toBe(507);
    expect(answer.body.code).toBe('QUOTA_EXCEEDED');
    expect((await listFiles(server, user.token)).map((file) => file.originalName).sort()).toEqual(['q0.txt', 'q1.txt', 'q2.txt']);
    const { storageUsed } = (await server.request('GET', '/api/user/dashboard', { token: user.token })).body.storageInfo;
    expect(storageUsed).toBe(storageLimit - 100 + 90);
  });

  it('leaves nothing of a group whose store fails: no row, no blob, storage exact; the request fails', async () => {
    const user = await createUser(server);
    const blobs = server.container.blobs;
    const put = blobs.put;
    let puts = 0;
    blobs.put = async (key, body, options) => {
      puts += 1;
      if (puts === 45) throw Object.assign(new Error('disk gone'), { code: 'EIO' });
      return put.call(blobs, key, body, options);
    };
    const blobsBefore = await server.blobCount();
    try {
      const answer = await send(user.token, smallFiles(100));
      expect(answer.status).toBe(500);
    } finally {
      blobs.put = put;
    }
    // The group of 32 whose store failed left no row; the groups before and after it are kept.
    const listed = await listFiles(server, user.token);
    expect(listed.length).toBe(100 - 32);
    await assertStorageConsistent(server, user.user.id);
    await expect.poll(() => server.blobCount()).toBe(blobsBefore + listed.length);
  });
});
