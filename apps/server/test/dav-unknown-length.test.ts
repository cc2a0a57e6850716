import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createUser } from '@cloudvault/test-support/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, davPassword, davRequest } from './helpers/dav-requests.ts';
import { assertStorageConsistent } from './helpers/storage-totals.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

const KiB = 1024;
const MiB = 1024 * KiB;
const STORAGE_LIMIT = 4 * MiB;
const MAX_FILE_SIZE = MiB;

let server: TestServer;
let plansDir: string;

beforeAll(async () => {
  plansDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-dav-unknown-length-'));
  const plansFile = path.join(plansDir, 'plans.json');
  const plan = {
    price: 0,
    description: 'test',
    features: [],
    popular: false,
    prioritySupport: false,
    maxConcurrentUploads: 3,
    capabilities: { passwordProtectedLinks: false, maxShareExpiryHours: 24, versioning: false, analytics: false },
  };
  await writeFile(
    plansFile,
    JSON.stringify([{ ...plan, id: 'FREE', name: 'Free', storageLimit: STORAGE_LIMIT, maxFileSize: MAX_FILE_SIZE }]),
  );
  server = await startTestServer({ env: { PLANS_FILE: plansFile } });
});
afterAll(async () => {
  await server?.close();
  await rm(plansDir, { recursive: true, force: true });
});

async function davUser() {
  const user = await createUser(server);
  return { userId: user.user.id, auth: basicAuth(user.email, await davPassword(server, user)) };
}

/**
 * A PUT whose body goes out chunked, with neither Content-Length nor X-Expected-Entity-Length,
 * a piece at a time; answers the status once the server answers (which may be before the end).
 */
function chunkedPut(auth: string, rawPath: string, pieces: Buffer[]): Promise<{ status: number; body: string }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port: Number(port), method: 'PUT', path: rawPath, headers: { authorization: auth } });
    let answered = false;
    request.on('response', (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    // The server may close once it has answered a refusal; the answer is what counts.
    request.on('error', (error) => answered || reject(error));
    const next = (index: number) => {
      if (answered || request.destroyed) return;
      if (index === pieces.length) return void request.end();
      request.write(pieces[index], () => next(index + 1));
    };
    next(0);
  });
}

const piecesOf = (bytes: Buffer, size = 64 * KiB) =>
  Array.from({ length: Math.ceil(bytes.length / size) }, (_, index) => bytes.subarray(index * size, (index + 1) * size));

async function reservationsOf(userId: string): Promise<number> {
  return (await server.container.database.db.selectFrom('upload_reservations').select('id').where('user_id', '=', userId).execute()).length;
}

async function storageUsedOf(userId: string): Promise<number> {
  const row = await server.container.database.db
    .selectFrom('users')
    .select('storage_used')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.storage_used);
}

describe('a WebDAV PUT of unknown length', () => {
  it('is stored as sent, and storage used is exactly its size afterwards', async () => {
    const { userId, auth } = await davUser();
    const bytes = randomBytes(700 * KiB + 13);
    const put = await chunkedPut(auth, '/dav/streamed.bin', piecesOf(bytes));
    expect(put.status).toBe(201);
    const raw = await new Promise<Buffer>((resolve, reject) => {
      const { port } = new URL(server.url);
      http.get({ host: '127.0.0.1', port: Number(port), path: '/dav/streamed.bin', headers: { authorization: auth } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve(Buffer.concat(chunks)));
        response.on('error', reject);
      });
    });
    expect(raw.equals(bytes)).toBe(true);
    expect(await storageUsedOf(userId)).toBe(bytes.length);
    expect(await reservationsOf(userId)).toBe(0);
    await assertStorageConsistent(server, userId);
  });

  it('replaces a file’s content, storage used counting the new size only', async () => {
    const { userId, auth } = await davUser();
    expect((await chunkedPut(auth, '/dav/again.bin', [randomBytes(300 * KiB)])).status).toBe(201);
    expect((await chunkedPut(auth, '/dav/again.bin', piecesOf(randomBytes(100 * KiB)))).status).toBe(204);
    expect(await storageUsedOf(userId)).toBe(100 * KiB);
    await assertStorageConsistent(server, userId);
  });

  it('is refused with 413 once it passes the per-file limit, keeping nothing', async () => {
    const { userId, auth } = await davUser();
    const blobsBefore = await server.blobCount();
    const put = await chunkedPut(auth, '/dav/too-large.bin', piecesOf(randomBytes(MAX_FILE_SIZE + 200 * KiB)));
    expect(put.status).toBe(413);
    expect(JSON.parse(put.body).code).toBe('FILE_TOO_LARGE');
    expect((await davRequest(server, 'GET', '/dav/too-large.bin', { auth })).status).toBe(404);
    await expect.poll(() => reservationsOf(userId)).toBe(0);
    expect(await storageUsedOf(userId)).toBe(0);
    await expect.poll(() => server.blobCount()).toBe(blobsBefore);
    await assertStorageConsistent(server, userId);
  });

  it('is refused with 507 once it passes the storage left, keeping nothing', async () => {
    const { userId, auth } = await davUser();
    const db = server.container.database.db;
    const used = STORAGE_LIMIT - 300 * KiB;
    await db.updateTable('users').set({ storage_used: used }).where('id', '=', userId).execute();
    const blobsBefore = await server.blobCount();
    const put = await chunkedPut(auth, '/dav/past-quota.bin', piecesOf(randomBytes(600 * KiB)));
    expect(put.status).toBe(507);
    expect(JSON.parse(put.body).code).toBe('QUOTA_EXCEEDED');
    expect((await davRequest(server, 'GET', '/dav/past-quota.bin', { auth })).status).toBe(404);
    await expect.poll(() => reservationsOf(userId)).toBe(0);
    expect(await storageUsedOf(userId)).toBe(used);
    await expect.poll(() => server.blobCount()).toBe(blobsBefore);
    // What fits in the storage left still goes through.
    expect((await chunkedPut(auth, '/dav/fits.bin', piecesOf(randomBytes(200 * KiB)))).status).toBe(201);
    expect(await storageUsedOf(userId)).toBe(used + 200 * KiB);
  });

  it('works from curl reading a pipe (curl -T -)', async () => {
    const { userId, auth } = await davUser();
    const bytes = randomBytes(300 * KiB);
    const status = await new Promise<string>((resolve, reject) => {
      const curl = spawn('curl', [
        '-sS',
        '-o',
        '/dev/null',
        '-w',
        '%{http_code}',
        '-H',
        `Authorization: ${auth}`,
        '-T',
        '-',
        `${server.url}/dav/from-curl.bin`,
      ]);
      let out = '';
      curl.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      curl.on('error', reject);
      curl.on('close', () => resolve(out));
      // Refused early, curl stops reading its pipe; the status it prints is what counts.
      curl.stdin.on('error', () => {});
      curl.stdin.end(bytes);
    });
    expect(status).toBe('201');
    expect(await storageUsedOf(userId)).toBe(bytes.length);
    await assertStorageConsistent(server, userId);
  });
});
