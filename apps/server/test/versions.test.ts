import { createHash, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { postForm, subscribe } from '@cloudvault/test-support/checkout';
import { downloadFile, uploadFile } from '@cloudvault/test-support/drive';
import { findStorageDrift } from '../src/modules/files/storage-consistency.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

const DAY = 24 * 60 * 60 * 1000;
const KiB = 1024;
let server: TestServer;

beforeAll(async () => {
  // Business gets 64 KiB here, so its quota is easy to reach with versions.
  const plans = JSON.parse(await readFile(new URL('../config/plans.json', import.meta.url), 'utf8')) as Array<Record<string, unknown>>;
  Object.assign(plans.find((plan) => plan.id === 'PREMIUM') as object, { storageLimit: 64 * KiB });
  const plansFile = path.join(os.tmpdir(), `cloudvault-versions-plans-${process.pid}.json`);
  await writeFile(plansFile, JSON.stringify(plans));
  server = await startTestServer({ env: { PLANS_FILE: plansFile } });
});
afterAll(() => server.close());

async function businessUser() {
  const user = await createUser(server);
  await subscribe(server, user.token, 'PREMIUM');
  return user;
}

const used = async (token: string) =>
  (await server.request('GET', '/api/user/dashboard', { token })).body.storageInfo.storageUsed as number;

describe('file versions on Business', () => {
  it('keeps the id and the old bytes as a version; restores, downloads and deletes versions', async () => {
    const { token } = await businessUser();
    const first = await uploadFile(server, token, 'first version', { name: 'notes.txt' });
    server.clock.advance(1000);
    const second = await uploadFile(server, token, 'the second one', { name: 'NOTES.txt' });
    expect(second.status).toBe(201);
    expect(second.body.file.id).toBe(first.body.file.id);
    expect(second.body.file.originalName).toBe('notes.txt');
    const id = first.body.file.id as string;
    expect((await downloadFile(server, token, id)).bytes.toString()).toBe('the second one');
    expect(await used(token)).toBe(13 + 14);

    const listed = await server.request('GET', `/api/files/${id}/versions`, { token });
    expect(listed.body.versions).toEqual([expect.objectContaining({ size: 13, sizeFormatted: '13 Bytes' })]);
    const versionId = listed.body.versions[0].id as string;
    const bytes = await fetch(`${server.url}/api/files/${id}/versions/${versionId}/download`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await bytes.text()).toBe('first version');
    const link = await server.request('POST', `/api/files/${id}/versions/${versionId}/download-link`, { token });
    expect(await (await fetch(`${server.url}${link.body.url}`)).text()).toBe('first version');

    server.clock.advance(1000);
    const restored = await server.request('POST', `/api/files/${id}/versions/${versionId}/restore`, { token });
    expect(restored.status).toBe(200);
    expect(restored.body.file).toMatchObject({ id, size: 13 });
    expect((await downloadFile(server, token, id)).bytes.toString()).toBe('first version');
    const after = (await server.request('GET', `/api/files/${id}/versions`, { token })).body.versions;
    expect(after).toHaveLength(1);
    expect(after[0].size).toBe(14);
    expect(await used(token)).toBe(27);

    expect((await server.request('DELETE', `/api/files/${id}/versions/${after[0].id}`, { token })).status).toBe(204);
    expect((await server.request('GET', `/api/files/${id}/versions`, { token })).body.versions).toEqual([]);
    expect(await used(token)).toBe(13);
    expect(await findStorageDrift(server.container.database.db)).toEqual([]);
  });

  it('counts versions against the quota and refuses a new version that does not fit', async () => {
    const { token } = await businessUser();
    expect((await uploadFile(server, token, Buffer.alloc(40 * KiB, 1), { name: 'big.bin' })).status).toBe(201);
    const refused = await uploadFile(server, token, Buffer.alloc(30 * KiB, 2), { name: 'big.bin' });
    expect(refused.status).toBe(507);
    expect(await used(token)).toBe(40 * KiB);
  });

  it('keeps versions in Trash with their file, and frees them when Trash is emptied', async () => {
    const { token } = await businessUser();
    const file = await uploadFile(server, token, 'a', { name: 'a.txt' });
    await uploadFile(server, token, 'bb', { name: 'a.txt' });
    await server.request('DELETE', `/api/files/${file.body.file.id}`, { token });
    expect(await used(token)).toBe(3);
    expect((await server.request('POST', '/api/trash/restore', { token, body: { type: 'file', id: file.body.file.id } })).status).toBe(200);
    expect((await server.request('GET', `/api/files/${file.body.file.id}/versions`, { token })).body.versions).toHaveLength(1);
    await server.request('DELETE', `/api/files/${file.body.file.id}`, { token });
    const blobs = await server.blobCount();
    expect((await server.request('DELETE', '/api/trash', { token })).status).toBe(204);
    expect(await used(token)).toBe(0);
    expect(await server.blobCount()).toBe(blobs - 2);
  });

  it('purges versions past both the newest 100 and 180 days', async () => {
    const user = await businessUser();
    const { token } = user;
    let id = '';
    for (let index = 0; index < 103; index++) {
      id = (await uploadFile(server, token, `v${index}`, { name: 'log.txt' })).body.file.id;
      server.clock.advance(1000);
    }
    expect((await server.request('GET', `/api/files/${id}/versions`, { token })).body.versions).toHaveLength(102);
    server.clock.advance(179 * DAY);
    expect(await server.container.versions.purgeExpired()).toBe(0);
    server.clock.advance(2 * DAY);
    expect(await server.container.versions.purgeExpired()).toBe(2);
    // Sessions last 7 days of the test clock: sign in again.
    const again = (await server.request('POST', '/api/auth/login', { body: { email: user.email, password: user.password } })).body.token;
    const kept = (await server.request('GET', `/api/files/${id}/versions`, { token: again })).body.versions;
    expect(kept).toHaveLength(100);
    expect(kept.at(-1).size).toBe(2);
    expect(await findStorageDrift(server.container.database.db)).toEqual([]);
  });
});

describe('resuming a download across versions (If-Range, RFC 9110 §13.1.5)', () => {
  it('answers a stale If-Range with the whole new file and a current one with the range, on every single-file path', async () => {
    const { token } = await businessUser();
    const older = randomBytes(3000);
    const newer = randomBytes(3000);
    const id = (await uploadFile(server, token, older, { name: 'movie.bin' })).body.file.id as string;
    const started = await downloadFile(server, token, id, { range: 'bytes=0-999' });
    expect(started.status).toBe(206);
    const olderTag = started.headers.get('etag') as string;
    expect(olderTag).toBe(`"${createHash('sha256').update(older).digest('hex')}"`);
    server.clock.advance(1000);
    expect((await uploadFile(server, token, newer, { name: 'movie.bin' })).body.file.id).toBe(id);
    const newerTag = `"${createHash('sha256').update(newer).digest('hex')}"`;

    /** A resumed download: the rest of the bytes, if the file is still the one named. */
    const resume = async (url: string, ifRange: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${server.url}${url}`, { headers: { range: 'bytes=1000-', 'if-range': ifRange, ...headers } });
      return {
        status: response.status,
        etag: response.headers.get('etag'),
        range: response.headers.get('content-range'),
        bytes: Buffer.from(await response.arrayBuffer()),
      };
    };
    const bearer = { authorization: `Bearer ${token}` };
    const whole = { status: 200, etag: newerTag, range: null, bytes: newer };
    const rest = { status: 206, etag: newerTag, range: 'bytes 1000-2999/3000', bytes: newer.subarray(1000) };

    expect(await resume(`/api/files/${id}/download`, olderTag, bearer)).toEqual(whole);
    expect(await resume(`/api/files/${id}/download`, newerTag, bearer)).toEqual(rest);
    // A weak tag never matches for If-Range; a date has no Last-Modified to match.
    expect(await resume(`/api/files/${id}/download`, `W/${newerTag}`, bearer)).toEqual(whole);
    expect(await resume(`/api/files/${id}/download`, server.clock.now().toUTCString(), bearer)).toEqual(whole);
    // A Range that a stale If-Range sets aside cannot be unsatisfiable either.
    const beyond = await fetch(`${server.url}/api/files/${id}/download`, {
      headers: { ...bearer, range: 'bytes=5000-', 'if-range': olderTag },
    });
    expect(beyond.status).toBe(200);
    expect(Buffer.from(await beyond.arrayBuffer()).equals(newer)).toBe(true);

    const link = (await server.request('POST', `/api/files/${id}/download-link`, { token })).body.url as string;
    expect(await resume(link, olderTag)).toEqual(whole);
    expect(await resume(link, newerTag)).toEqual(rest);

    const shareUrl = (await server.request('POST', `/api/files/${id}/share`, { token, body: { expiresIn: 24 } })).body.shareUrl as string;
    const shared = `/api/public/shares/${shareUrl.split('/s/')[1]}/download`;
    expect(await resume(shared, olderTag)).toEqual(whole);
    expect(await resume(shared, newerTag)).toEqual(rest);

    const versionId = (await server.request('GET', `/api/files/${id}/versions`, { token })).body.versions[0].id as string;
    const version = `/api/files/${id}/versions/${versionId}/download`;
    expect(await resume(version, newerTag, bearer)).toEqual({ status: 200, etag: olderTag, range: null, bytes: older });
    expect(await resume(version, olderTag, bearer)).toEqual({
      status: 206,
      etag: olderTag,
      range: 'bytes 1000-2999/3000',
      bytes: older.subarray(1000),
    });
  });
});

describe('without versioning', () => {
  it('numbers a taken name on Free', async () => {
    const { token } = await createUser(server);
    const first = await uploadFile(server, token, 'one', { name: 'free.txt' });
    const second = await uploadFile(server, token, 'two', { name: 'free.txt' });
    expect(second.body.file.id).not.toBe(first.body.file.id);
    expect(second.body.file.originalName).toBe('free (1).txt');
    expect((await server.request('GET', `/api/files/${first.body.file.id}/versions`, { token })).body.versions).toEqual([]);
  });

  it('keeps existing versions after a downgrade, while new uploads of a taken name are numbered', async () => {
    const { token } = await businessUser();
    const file = await uploadFile(server, token, 'one', { name: 'kept.txt' });
    await uploadFile(server, token, 'two', { name: 'kept.txt' });
    const portal = await server.request('POST', '/api/subscriptions/create-portal-session', { token, body: {} });
    expect((await postForm(server, `${portal.body.sessionUrl}/end`)).status).toBe(303);
    const third = await uploadFile(server, token, 'three', { name: 'kept.txt' });
    expect(third.body.file.originalName).toBe('kept (1).txt');
    const versions = (await server.request('GET', `/api/files/${file.body.file.id}/versions`, { token })).body.versions;
    expect(versions).toHaveLength(1);
    expect((await server.request('POST', `/api/files/${file.body.file.id}/versions/${versions[0].id}/restore`, { token })).status).toBe(
      200,
    );
  });

  it("answers 404 for another user's file and versions", async () => {
    const owner = await businessUser();
    const other = await createUser(server);
    const file = await uploadFile(server, owner.token, 'x', { name: 'x.txt' });
    await uploadFile(server, owner.token, 'y', { name: 'x.txt' });
    const versionId = (await server.request('GET', `/api/files/${file.body.file.id}/versions`, { token: owner.token })).body.versions[0].id;
    expect((await server.request('GET', `/api/files/${file.body.file.id}/versions`, { token: other.token })).status).toBe(404);
    expect(
      (
        await fetch(`${server.url}/api/files/${file.body.file.id}/versions/${versionId}/download`, {
          headers: { authorization: `Bearer ${other.token}` },
        })
      ).status,
    ).toBe(404);
    expect(
      (await server.request('POST', `/api/files/${file.body.file.id}/versions/${versionId}/restore`, { token: other.token })).status,
    ).toBe(404);
    expect((await server.request('DELETE', `/api/files/${file.body.file.id}/versions/${versionId}`, { token: other.token })).status).toBe(
      404,
    );
  });
});
