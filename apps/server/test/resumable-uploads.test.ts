import { rm } from 'node:fs/promises';
import { sql } from 'kysely';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFolder, listFiles } from '@cloudvault/test-support/drive';
import { hashStatesResumable } from '../src/adapters/blob-store/hashing-stream.ts';
import { BACKGROUND_JOBS } from '../src/background-jobs.ts';
import { assertStorageConsistent, storageTotals } from './helpers/storage-totals.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { randomFile, sha256OfResponse, tusUpload } from './helpers/tus-upload.ts';

const MiB = 1024 * 1024;
const DAY = 24 * 60 * 60 * 1000;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const metadataHeader = (metadata: Record<string, string>) =>
  Object.entries(metadata)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');

/** A creation by hand, for what the client library would not send. */
function create(token: string, length: number, metadata: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(`${server.url}/api/uploads`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      'Tus-Resumable': '1.0.0',
      'Upload-Length': String(length),
      'Upload-Metadata': metadataHeader(metadata),
      ...headers,
    },
  });
}

const errorOf = async (response: Response) => (await response.json()) as { error: string; code: string };

function patch(token: string, location: string, offset: number, body: Buffer) {
  return fetch(new URL(location, server.url), {
    method: 'PATCH',
    headers: {
      Authorization: `Bearer ${token}`,
      'Tus-Resumable': '1.0.0',
      'Upload-Offset': String(offset),
      'Content-Type': 'application/offset+octet-stream',
    },
    body,
  });
}

describe('tus uploads at /api/uploads', () => {
  it('turns an upload in chunks into a file of the folder, with the exact bytes, X-File-Id and storage', async () => {
    const { token, user } = await createUser(server);
    const folder = await createFolder(server, token, 'Holidays');
    const source = await randomFile(5 * MiB + 123, 'beach.bin');
    const result = await tusUpload({
      origin: server.url,
      token,
      filePath: source.path,
      chunkSize: MiB,
      metadata: { filename: 'beach.bin', folderId: folder.id, filetype: 'image/png' },
    });
    const files = await listFiles(server, token, folder.id);
    expect(files.map((file) => [file.id, file.originalName, file.size, file.mimetype])).toEqual([
      [result.fileId, 'beach.bin', 5 * MiB + 123, 'image/png'],
    ]);
    const download = await fetch(`${server.url}/api/files/${result.fileId}/download`, { headers: { Authorization: `Bearer ${token}` } });
    expect(await sha256OfResponse(download)).toBe(source.sha256);
    const row = await server.container.database.db
      .selectFrom('files')
      .select(['sha256', 'crc32'])
      .where('id', '=', result.fileId as string)
      .executeTakeFirstOrThrow();
    expect([row.sha256, Number(row.crc32)]).toEqual([source.sha256, source.crc32]);
    // With the native addon every PATCH's bytes were hashed on their way in; without, finishing read the blob once.
    const upload = await server.container.database.db
      .selectFrom('resumable_uploads')
      .select('hashed_bytes')
      .where('file_id', '=', result.fileId as string)
      .executeTakeFirstOrThrow();
    expect(Number(upload.hashed_bytes)).toBe(hashStatesResumable() ? 5 * MiB + 123 : 0);
    await assertStorageConsistent(server, user.id);
    await rm(path.dirname(source.path), { recursive: true });
  });

  it('names a clash "(1)" as the multipart route does', async () => {
    const { token } = await createUser(server);
    const source = await randomFile(1000, 'notes.txt');
    await tusUpload({ origin: server.url, token, filePath: source.path });
    const second = await tusUpload({ origin: server.url, token, filePath: source.path });
    const names = (await listFiles(server, token)).map((file) => file.originalName).sort();
    expect(names).toEqual(['notes (1).txt', 'notes.txt']);
    expect((await listFiles(server, token)).find((file) => file.originalName === 'notes (1).txt')?.id).toBe(second.fileId);
  });

  it('answers a PATCH at a wrong offset 409, in our error shape', async () => {
    const { token } = await createUser(server);
    const created = await create(token, 100, { filename: 'a.bin' });
    expect(created.status).toBe(201);
    const location = created.headers.get('location') as string;
    expect((await patch(token, location, 0, Buffer.alloc(40))).status).toBe(204);
    const wrong = await patch(token, location, 10, Buffer.alloc(10));
    expect(wrong.status).toBe(409);
    expect(await wrong.json()).toMatchObject({ code: 'UPLOAD_OFFSET_CONFLICT' });
  });

  it("answers 404 to another user's HEAD, PATCH and DELETE of an upload", async () => {
    const owner = await createUser(server);
    const other = await createUser(server);
    const location = (await create(owner.token, 100, { filename: 'a.bin' })).headers.get('location') as string;
    const url = new URL(location, server.url);
    const common = { Authorization: `Bearer ${other.token}`, 'Tus-Resumable': '1.0.0' };
    const head = await fetch(url, { method: 'HEAD', headers: common });
    const patched = await patch(other.token, location, 0, Buffer.alloc(10));
    const deleted = await fetch(url, { method: 'DELETE', headers: common });
    expect([head.status, patched.status, deleted.status]).toEqual([404, 404, 404]);
    expect(await patched.json()).toMatchObject({ code: 'UPLOAD_NOT_FOUND' });
    const own = await fetch(url, { method: 'HEAD', headers: { ...common, Authorization: `Bearer ${owner.token}` } });
    expect(own.headers.get('upload-offset')).toBe('0');
  });

  it("applies the multipart route's rules at creation, before any byte", async () => {
    const owner = await createUser(server);
    const other = await createUser(server);
    const theirs = await createFolder(server, other.token, 'Theirs');
    const missingName = await create(owner.token, 10, { folderId: theirs.id });
    expect([missingName.status, (await errorOf(missingName)).code]).toEqual([400, 'FILENAME_REQUIRED']);
    const foreignFolder = await create(owner.token, 10, { filename: 'a.bin', folderId: theirs.id });
    expect([foreignFolder.status, (await errorOf(foreignFolder)).code]).toEqual([404, 'FOLDER_NOT_FOUND']);
    const badName = await create(owner.token, 10, { filename: '..' });
    expect(badName.status).toBe(400);
    const plan = server.container.plans.get('FREE');
    const tooLarge = await create(owner.token, (plan.maxFileSize ?? plan.storageLimit) + 1, { filename: 'big.bin' });
    expect((await errorOf(tooLarge)).code).toBe(plan.maxFileSize === null ? 'QUOTA_EXCEEDED' : 'FILE_TOO_LARGE');
    const noRoom = await create(owner.token, plan.storageLimit + 1, { filename: 'big.bin' });
    expect(noRoom.status).toBe(plan.maxFileSize !== null && plan.maxFileSize < plan.storageLimit + 1 ? 413 : 507);
    expect((await storageTotals(server, owner.user.id)).used).toBe(0);
  });

  it("counts unfinished uploads against the plan's uploads at once (429)", async () => {
    const { token } = await createUser(server);
    const slots = server.container.plans.get('FREE').maxConcurrentUploads as number;
    for (let i = 0; i < slots; i++) expect((await create(token, 10, { filename: `f${i}` })).status).toBe(201);
    const refused = await create(token, 10, { filename: 'one-more' });
    expect([refused.status, (await errorOf(refused)).code]).toEqual([429, 'TOO_MANY_UPLOADS']);
  });

  it('frees the space and the bytes at once on termination', async () => {
    const { token, user } = await createUser(server);
    const created = await create(token, 2 * MiB, { filename: 'gone.bin' });
    const location = created.headers.get('location') as string;
    await patch(token, location, 0, Buffer.alloc(MiB, 7));
    expect((await storageTotals(server, user.id)).used).toBe(2 * MiB);
    const deleted = await fetch(new URL(location, server.url), {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${token}`, 'Tus-Resumable': '1.0.0' },
    });
    expect(deleted.status).toBe(204);
    expect((await storageTotals(server, user.id)).used).toBe(0);
    const key = location.split('/').pop() as string;
    expect((await server.storedNames()).filter((name) => name.includes(key))).toEqual([]);
    const head = await fetch(new URL(location, server.url), {
      method: 'HEAD',
      headers: { Authorization: `Bearer ${token}`, 'Tus-Resumable': '1.0.0' },
    });
    expect(head.status).toBe(404);
  });

  it('expires an unfinished upload after 24 hours: reservation and bytes freed by the job', async () => {
    const { token, user } = await createUser(server);
    const created = await create(token, 2 * MiB, { filename: 'later.bin' });
    const location = created.headers.get('location') as string;
    expect(new Date(created.headers.get('upload-expires') as string).getTime()).toBe(
      server.clock.now().getTime() - (server.clock.now().getTime() % 1000) + DAY,
    );
    await patch(token, location, 0, Buffer.alloc(MiB, 7));
    const key = location.split('/').pop() as string;
    expect((await server.storedNames()).some((name) => name.includes(key))).toBe(true);
    server.clock.advance(DAY + 1000);
    const expired = await fetch(new URL(location, server.url), {
      method: 'HEAD',
      headers: { Authorization: `Bearer ${token}`, 'Tus-Resumable': '1.0.0' },
    });
    expect(expired.status).toBe(410);
    await server.container.jobs.runNow(BACKGROUND_JOBS.resumableUploadExpiry);
    await server.container.jobs.runNow(BACKGROUND_JOBS.resumableUploadExpiry);
    expect((await storageTotals(server, user.id)).used).toBe(0);
    expect((await server.storedNames()).filter((name) => name.includes(key))).toEqual([]);
    const gone = await fetch(new URL(location, server.url), {
      method: 'HEAD',
      headers: { Authorization: `Bearer ${token}`, 'Tus-Resumable': '1.0.0' },
    });
    expect(gone.status).toBe(404);
  });

  it('ends exact when 8 uploads race for the room of 3', async () => {
    const { token, user } = await createUser(server);
    const db = server.container.database.db;
    await db.updateTable('users').set({ plan_id: 'PRO' }).where('id', '=', user.id).execute();
    const size = MiB;
    // The quota's edge without storing 100 GB: usage that no file accounts for, taken off again below.
    const elsewhere = server.container.plans.get('PRO').storageLimit - 3.5 * size;
    await db.updateTable('users').set({ storage_used: elsewhere }).where('id', '=', user.id).execute();
    const source = await randomFile(size, 'race.bin');
    const outcomes = await Promise.allSettled(
      Array.from({ length: 8 }, () => tusUpload({ origin: server.url, token, filePath: source.path, retryDelays: [] })),
    );
    const stored = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes
      .filter((outcome) => outcome.status === 'rejected')
      .map((outcome) => String((outcome as PromiseRejectedResult).reason));
    expect(stored).toHaveLength(3);
    expect(refused.every((reason) => reason.includes('507') && reason.includes('QUOTA_EXCEEDED'))).toBe(true);
    await db
      .updateTable('users')
      .set({ storage_used: sql`storage_used - ${elsewhere}` })
      .where('id', '=', user.id)
      .execute();
    expect((await assertStorageConsistent(server, user.id)).sum).toBe(3 * size);
  });

  it('finishes once when two PATCHes of the last bytes race, and answers a retry with the same file', async () => {
    const { token } = await createUser(server);
    const location = (await create(token, 1000, { filename: 'once.bin' })).headers.get('location') as string;
    expect((await patch(token, location, 0, Buffer.alloc(900, 1))).status).toBe(204);
    const racing = await Promise.all([
      patch(token, location, 900, Buffer.alloc(100, 2)),
      patch(token, location, 900, Buffer.alloc(100, 2)),
    ]);
    const finished = racing.filter((response) => response.status === 204);
    expect(finished.length).toBeGreaterThanOrEqual(1);
    expect(racing.every((response) => response.status === 204 || response.status === 409)).toBe(true);
    const fileIds = new Set(finished.map((response) => response.headers.get('x-file-id')));
    expect(fileIds.size).toBe(1);
    const retry = await patch(token, location, 1000, Buffer.alloc(0));
    expect([retry.status, retry.headers.get('x-file-id')]).toEqual([204, [...fileIds][0]]);
    const head = await fetch(new URL(location, server.url), {
      method: 'HEAD',
      headers: { Authorization: `Bearer ${token}`, 'Tus-Resumable': '1.0.0' },
    });
    expect([head.headers.get('upload-offset'), head.headers.get('x-file-id')]).toEqual(['1000', [...fileIds][0]]);
    expect((await listFiles(server, token)).map((file) => file.id)).toEqual([...fileIds]);
  });

  it('stores a same-named upload as a new version on Business', async () => {
    const { token, user } = await createUser(server);
    await server.container.database.db.updateTable('users').set({ plan_id: 'PREMIUM' }).where('id', '=', user.id).execute();
    const first = await randomFile(2000, 'report.pdf');
    const second = await randomFile(3000, 'report.pdf');
    const original = await tusUpload({ origin: server.url, token, filePath: first.path });
    const update = await tusUpload({ origin: server.url, token, filePath: second.path });
    expect(update.fileId).toBe(original.fileId);
    expect((await listFiles(server, token)).map((file) => [file.originalName, file.size])).toEqual([['report.pdf', 3000]]);
    const versions = await server.container.database.db
      .selectFrom('file_versions')
      .select('size')
      .where('file_id', '=', original.fileId as string)
      .execute();
    expect(versions.map((version) => Number(version.size))).toEqual([2000]);
    await assertStorageConsistent(server, user.id);
  });

  it('finishes at the next HEAD an upload whose finishing failed after its last byte', async () => {
    const { token, user } = await createUser(server);
    const location = (await create(token, 1000, { filename: 'interrupted.bin' })).headers.get('location') as string;
    // As a node dying between moving the bytes and listing the file.
    const listing = vi.spyOn(server.container.uploads, 'listStored').mockRejectedValueOnce(new Error('the node went away'));
    const last = await patch(token, location, 0, Buffer.alloc(1000, 3));
    expect(last.status).toBe(500);
    expect(listing).toHaveBeenCalledTimes(1);
    listing.mockRestore();
    const head = await fetch(new URL(location, server.url), {
      method: 'HEAD',
      headers: { Authorization: `Bearer ${token}`, 'Tus-Resumable': '1.0.0' },
    });
    expect([head.status, head.headers.get('upload-offset')]).toEqual([200, '1000']);
    expect((await listFiles(server, token)).map((file) => [file.id, file.originalName])).toEqual([
      [head.headers.get('x-file-id'), 'interrupted.bin'],
    ]);
    await assertStorageConsistent(server, user.id);
  });

  it('takes the whole file with the creation request (creation-with-upload)', async () => {
    const { token } = await createUser(server);
    const body = Buffer.from('all at once');
    const created = await fetch(`${server.url}/api/uploads`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Tus-Resumable': '1.0.0',
        'Upload-Length': String(body.length),
        'Upload-Metadata': metadataHeader({ filename: 'once.txt' }),
        'Content-Type': 'application/offset+octet-stream',
      },
      body,
    });
    expect([created.status, created.headers.get('upload-offset')]).toEqual([201, String(body.length)]);
    const fileId = created.headers.get('x-file-id');
    const download = await fetch(`${server.url}/api/files/${fileId}/download`, { headers: { Authorization: `Bearer ${token}` } });
    expect(await download.text()).toBe('all at once');
  });
});
