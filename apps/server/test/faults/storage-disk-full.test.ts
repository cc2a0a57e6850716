import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFile, downloadFile, listFiles, uploadFile } from '@cloudvault/test-support/drive';
import { basicAuth, davRequest } from '../helpers/dav-requests.ts';
import { mountSmallDisk, type SmallDisk } from '../helpers/small-disk.ts';
import { assertStorageConsistent } from '../helpers/storage-totals.ts';
import { streamedRequest } from '../helpers/streamed-request.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

/**
 * The disk that holds the blobs fills up mid-upload: a 48 MiB ext4 image mounted as
 * DATA_DIR/blobs (the database stays on the machine's disk, as the blobs are what fill a
 * real one). Every upload route answers 507 INSUFFICIENT_STORAGE, keeps nothing of the
 * upload, and the server goes on serving what it had; once space is freed, uploads work
 * again without a restart.
 */
const MiB = 1024 * 1024;
const root = fileURLToPath(new URL('../../../..', import.meta.url));
const BOUNDARY = 'cloudvault-disk-full';

let dataDir: string;
let disk: SmallDisk | undefined;
let server: TestServer | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-disk-full-'));
  disk = await mountSmallDisk(path.join(dataDir, 'blobs'), 48);
  server = await startTestServer({ env: { DATA_DIR: dataDir } });
});

afterAll(async () => {
  try {
    await server?.close();
  } finally {
    await disk?.remove();
    await rm(dataDir, { recursive: true, force: true });
  }
});

const running = () => server as TestServer;
const smallDisk = () => disk as SmallDisk;
const port = () => Number(new URL(running().url).port);

/** Files on the small disk: finished blobs by key, and what the temp folder holds. */
async function filesOnDisk(): Promise<{ blobs: string[]; temp: string[] }> {
  const entries = await readdir(smallDisk().mountPoint, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile() && !entry.parentPath.includes('lost+found'));
  return {
    blobs: files
      .filter((entry) => !entry.parentPath.endsWith('.tmp'))
      .map((entry) => entry.name)
      .sort(),
    temp: files.filter((entry) => entry.parentPath.endsWith('.tmp')).map((entry) => entry.name),
  };
}

/** The blob of every file row, any user's: all that the disk may hold. */
async function listedBlobKeys(): Promise<string[]> {
  const rows = await running().container.database.db.selectFrom('files').select('blob_key').execute();
  return rows.map((row) => row.blob_key).sort();
}

async function reservationsOf(userId: string): Promise<number> {
  const rows = await running().container.database.db.selectFrom('upload_reservations').select('id').where('user_id', '=', userId).execute();
  return rows.length;
}

/** `npm run db:check` against the server's database and blob store. */
function dbCheck(): Promise<{ status: number; stdout: string }> {
  const env = { ...process.env, DATABASE_URL: '', ...running().env };
  return new Promise((resolve) => {
    execFile('npm', ['run', '--silent', 'db:check'], { cwd: root, env, encoding: 'utf8' }, (error, stdout) => {
      resolve({ status: error ? Number(error.code ?? 1) : 0, stdout });
    });
  });
}

/** More bytes than the disk has left: the upload must fail part-way through writing them. */
const overflowing = async () => (await smallDisk().freeBytes()) + 8 * MiB;

function multipartUpload(token: string, bytes: number) {
  return streamedRequest({
    port: port(),
    head: [
      'POST /api/files/upload HTTP/1.1',
      'Host: 127.0.0.1',
      `Authorization: Bearer ${token}`,
      `Content-Type: multipart/form-data; boundary=${BOUNDARY}`,
    ],
    prefix: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="too-big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    bodyBytes: bytes,
    suffix: `\r\n--${BOUNDARY}--\r\n`,
  });
}

/** The user's files, Trash and accounting are just what was acknowledged, and db:check agrees. */
async function expectOnlyAcknowledged(user: { id: string; token: string }, kept: { id: string; name: string; bytes: Buffer }[]) {
  expect((await listFiles(running(), user.token)).map((file) => file.originalName).sort()).toEqual(kept.map((file) => file.name).sort());
  for (const file of kept) {
    const download = await downloadFile(running(), user.token, file.id);
    expect(download.status).toBe(200);
    expect(download.bytes.equals(file.bytes)).toBe(true);
  }
  expect(await reservationsOf(user.id)).toBe(0);
  const totals = await assertStorageConsistent(running(), user.id);
  expect(totals.used).toBe(kept.reduce((sum, file) => sum + file.bytes.length, 0));
  const onDisk = await filesOnDisk();
  expect(onDisk.temp).toEqual([]);
  expect(onDisk.blobs).toEqual(await listedBlobKeys());
  const check = await dbCheck();
  expect(check.stdout).toContain('Storage is consistent');
  expect(check.status).toBe(0);
}

describe('a full disk under local storage', () => {
  it('answers a multipart upload that passes the free space 507 INSUFFICIENT_STORAGE, keeping nothing of it, and goes on serving', async () => {
    const user = await createUser(running());
    const keptBytes = randomBytes(4 * MiB);
    const kept = await createFile(running(), user.token, keptBytes, { name: 'kept.bin' });

    const answer = await multipartUpload(user.token, await overflowing());
    expect(answer.status).toBe(507);
    expect(answer.headers['content-type']).toContain('application/json');
    expect(answer.json).toMatchObject({ code: 'INSUFFICIENT_STORAGE', error: expect.stringContaining('no room') });
    // The server noticed mid-body, not after reading everything.
    expect(answer.bytesSent).toBeLessThan(48 * MiB);

    await expectOnlyAcknowledged({ id: user.user.id, token: user.token }, [{ id: kept.id, name: 'kept.bin', bytes: keptBytes }]);
    // Told to the operator as a warning with the disk's own error; no 500 anywhere.
    expect(running().logs()).toContain('answered 507 INSUFFICIENT_STORAGE');
    expect(running().logs()).toContain('ENOSPC');
    expect(running().logs()).not.toContain('"level":50');
  });

  it("answers a tus PATCH that passes the free space 507, giving the PATCH's bytes back", async () => {
    const user = await createUser(running());
    const freeBefore = await smallDisk().freeBytes();
    const length = freeBefore + 8 * MiB;
    const created = await running().request('POST', '/api/uploads', {
      token: user.token,
      headers: {
        'tus-resumable': '1.0.0',
        'upload-length': String(length),
        'upload-metadata': `filename ${Buffer.from('too-big.bin').toString('base64')}`,
      },
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location') as string;
    const uploadPath = new URL(location, running().url).pathname;

    const answer = await streamedRequest({
      port: port(),
      head: [
        `PATCH ${uploadPath} HTTP/1.1`,
        'Host: 127.0.0.1',
        `Authorization: Bearer ${user.token}`,
        'Tus-Resumable: 1.0.0',
        'Upload-Offset: 0',
        'Content-Type: application/offset+octet-stream',
      ],
      bodyBytes: length,
    });
    expect(answer.status).toBe(507);
    expect(answer.json).toMatchObject({ code: 'INSUFFICIENT_STORAGE' });

    // The upload stands where it stood before the PATCH, and holds no space on the disk.
    const head = await running().request('HEAD', uploadPath, { token: user.token, headers: { 'tus-resumable': '1.0.0' } });
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe('0');
    expect(await smallDisk().freeBytes()).toBeGreaterThanOrEqual(freeBefore - MiB);

    const terminated = await running().request('DELETE', uploadPath, { token: user.token, headers: { 'tus-resumable': '1.0.0' } });
    expect(terminated.status).toBe(204);
    await expectOnlyAcknowledged({ id: user.user.id, token: user.token }, []);
  });

  it('answers a WebDAV PUT that passes the free space 507, keeping nothing of it', async () => {
    const user = await createUser(running());
    const answer = await streamedRequest({
      port: port(),
      head: [
        'PUT /dav/too-big.bin HTTP/1.1',
        'Host: 127.0.0.1',
        `Authorization: ${basicAuth(user.email, user.password)}`,
        'Content-Type: application/octet-stream',
      ],
      bodyBytes: await overflowing(),
    });
    expect(answer.status).toBe(507);
    expect(answer.json).toMatchObject({ code: 'INSUFFICIENT_STORAGE' });
    const listing = await davRequest(running(), 'PROPFIND', '/dav/', {
      auth: basicAuth(user.email, user.password),
      headers: { depth: '1' },
    });
    expect(listing.status).toBe(207);
    expect(listing.text).not.toContain('too-big.bin');
    await expectOnlyAcknowledged({ id: user.user.id, token: user.token }, []);
  });

  it('takes uploads again, without a restart, once a file is deleted and its space freed', async () => {
    const user = await createUser(running());
    const filler = await createFile(running(), user.token, randomBytes(28 * MiB), { name: 'filler.bin' });
    const nextBytes = randomBytes(Math.min(24 * MiB, (await smallDisk().freeBytes()) + 4 * MiB));
    const refused = await uploadFile(running(), user.token, nextBytes, { name: 'next.bin' });
    expect(refused.status).toBe(507);
    expect(refused.body.code).toBe('INSUFFICIENT_STORAGE');

    expect((await running().request('DELETE', `/api/files/${filler.id}`, { token: user.token })).status).toBe(200);
    expect((await running().request('DELETE', '/api/trash', { token: user.token })).status).toBe(204);
    const stored = await uploadFile(running(), user.token, nextBytes, { name: 'next.bin' });
    expect(stored.status).toBe(201);
    await expectOnlyAcknowledged({ id: user.user.id, token: user.token }, [
      { id: stored.body.file.id, name: 'next.bin', bytes: nextBytes },
    ]);
  });
});
