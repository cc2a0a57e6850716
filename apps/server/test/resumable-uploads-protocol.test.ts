import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFolder, listFiles } from '@cloudvault/test-support/drive';
import { assertStorageConsistent, storageTotals } from './helpers/storage-totals.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { sha256OfResponse } from './helpers/tus-upload.ts';

// tus 1.0.0 spoken by hand, as the protocol's own examples do and as tusd's clients and
// other implementations expect (docs/decisions/0025-resumable-uploads.md): no client
// library smooths over a missing header or a wrong status here.

const KiB = 1024;
const DAY = 24 * 60 * 60 * 1000;
/** RFC 7231's IMF-fixdate, the format of Upload-Expires: `Wed, 25 Jun 2014 16:00:00 GMT`. */
const IMF_FIXDATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const OCTETS = 'application/offset+octet-stream';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** `key base64(value)` pairs; a null value sends the key alone, which the protocol allows. */
const metadataHeader = (metadata: Record<string, string | null>) =>
  Object.entries(metadata)
    .map(([key, value]) => (value === null ? key : `${key} ${Buffer.from(value, 'utf8').toString('base64')}`))
    .join(',');

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function tusRequest(token: string, url: string, method: string, headers: Record<string, string> = {}, body?: Buffer) {
  return fetch(new URL(url, server.url), {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Tus-Resumable': '1.0.0', ...headers },
    body,
  });
}

async function createUpload(
  token: string,
  length: number,
  metadata: Record<string, string | null>,
  headers: Record<string, string> = {},
  body?: Buffer,
) {
  const response = await tusRequest(
    token,
    '/api/uploads',
    'POST',
    { 'Upload-Length': String(length), 'Upload-Metadata': metadataHeader(metadata), ...headers },
    body,
  );
  return { response, location: new URL(response.headers.get('location') ?? '/missing', server.url).href };
}

const patch = (token: string, location: string, offset: number, bytes: Buffer, headers: Record<string, string> = {}) =>
  tusRequest(token, location, 'PATCH', { 'Upload-Offset': String(offset), 'Content-Type': OCTETS, ...headers }, bytes);

const head = (token: string, location: string) => tusRequest(token, location, 'HEAD');

const errorCode = async (response: Response) => ((await response.json()) as { code: string }).code;

describe('tus 1.0.0 by hand at /api/uploads', () => {
  it('answers OPTIONS with the version and exactly the extensions it implements, without an account', async () => {
    const response = await fetch(`${server.url}/api/uploads`, { method: 'OPTIONS' });
    expect(response.status).toBe(204);
    expect(response.headers.get('tus-version')?.split(',')).toContain('1.0.0');
    expect(response.headers.get('tus-extension')?.split(',').sort()).toEqual([
      'creation',
      'creation-with-upload',
      'expiration',
      'termination',
    ]);
    // The largest file differs by plan, so no one Tus-Max-Size is true for every caller: creation answers 413.
    expect(response.headers.get('tus-max-size')).toBeNull();
  });

  it('creates, reports the offset, takes PATCHes in order and lists the file with its exact bytes', async () => {
    const { token, user } = await createUser(server);
    const folder = await createFolder(server, token, 'Reports');
    const bytes = randomBytes(300 * KiB + 7);
    const name = 'Résumé 2026 — final.pdf';
    const { response: created, location } = await createUpload(token, bytes.length, {
      filename: name,
      folderId: folder.id,
      filetype: 'application/pdf',
      'is-confidential': null,
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('tus-resumable')).toBe('1.0.0');
    expect(location.startsWith(`${server.url}/api/uploads/`)).toBe(true);
    const expires = created.headers.get('upload-expires') ?? '';
    expect(expires).toMatch(IMF_FIXDATE);
    // Whole seconds: the header format has no milliseconds.
    expect(Math.abs(Date.parse(expires) - (server.clock.now().getTime() + DAY))).toBeLessThan(1000);

    const fresh = await head(token, location);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('upload-offset')).toBe('0');
    expect(fresh.headers.get('upload-length')).toBe(String(bytes.length));
    expect(fresh.headers.get('cache-control')).toBe('no-store');
    expect(fresh.headers.get('tus-resumable')).toBe('1.0.0');
    // The metadata as the client sent it, a key without a value included.
    const echoed = Object.fromEntries((fresh.headers.get('upload-metadata') ?? '').split(',').map((pair) => pair.split(' ')));
    expect(Buffer.from(echoed.filename ?? '', 'base64').toString('utf8')).toBe(name);
    expect('is-confidential' in echoed).toBe(true);

    const cuts = [0, 100 * KiB, 250 * KiB, bytes.length];
    let finished: Response | undefined;
    for (let i = 0; i + 1 < cuts.length; i++) {
      const answer = await patch(token, location, cuts[i]!, bytes.subarray(cuts[i], cuts[i + 1]));
      expect(answer.status).toBe(204);
      expect(answer.headers.get('upload-offset')).toBe(String(cuts[i + 1]));
      expect(answer.headers.get('tus-resumable')).toBe('1.0.0');
      if (i + 2 < cuts.length) {
        expect(answer.headers.get('upload-expires')).toBe(expires);
        expect((await head(token, location)).headers.get('upload-offset')).toBe(String(cuts[i + 1]));
      }
      finished = answer;
    }
    const fileId = finished?.headers.get('x-file-id');
    expect(fileId).toBeTruthy();
    const listed = await listFiles(server, token, folder.id);
    expect(listed.map((file) => [file.id, file.originalName, file.size, file.mimetype])).toEqual([
      [fileId, name, bytes.length, 'application/pdf'],
    ]);
    const download = await fetch(`${server.url}/api/files/${fileId}/download`, { headers: { Authorization: `Bearer ${token}` } });
    expect(await sha256OfResponse(download)).toBe(sha256(bytes));

    const after = await head(token, location);
    expect([after.status, after.headers.get('upload-offset'), after.headers.get('x-file-id'), after.headers.get('cache-control')]).toEqual([
      200,
      String(bytes.length),
      fileId,
      'no-store',
    ]);
    await assertStorageConsistent(server, user.id);
  });

  it('takes the first bytes with the creation request (creation-with-upload) and the rest by PATCH', async () => {
    const { token } = await createUser(server);
    const bytes = randomBytes(64 * KiB);
    const { response: created, location } = await createUpload(
      token,
      bytes.length,
      { filename: 'with-upload.bin' },
      { 'Content-Type': OCTETS },
      bytes.subarray(0, 10 * KiB),
    );
    expect(created.status).toBe(201);
    expect(created.headers.get('upload-offset')).toBe(String(10 * KiB));
    expect((await head(token, location)).headers.get('upload-offset')).toBe(String(10 * KiB));
    const rest = await patch(token, location, 10 * KiB, bytes.subarray(10 * KiB));
    expect(rest.status).toBe(204);
    const [file] = await listFiles(server, token);
    expect([file?.id, file?.size]).toEqual([rest.headers.get('x-file-id'), bytes.length]);
  });

  it('finishes an empty file at creation, as clients send one (Upload-Length: 0, no PATCH)', async () => {
    const { token } = await createUser(server);
    const { response: created, location } = await createUpload(token, 0, { filename: 'empty.txt' });
    expect(created.status).toBe(201);
    const fileId = created.headers.get('x-file-id');
    expect(fileId).toBeTruthy();
    expect((await listFiles(server, token)).map((file) => [file.id, file.originalName, file.size])).toEqual([[fileId, 'empty.txt', 0]]);
    const after = await head(token, location);
    expect([after.status, after.headers.get('upload-offset'), after.headers.get('upload-length'), after.headers.get('x-file-id')]).toEqual([
      200,
      '0',
      '0',
      fileId,
    ]);
    // The blob alone: on S3 no multipart upload is left pending (it never got a part).
    const key = location.split('/').pop() as string;
    expect((await server.storedNames()).filter((name) => name.includes(key))).toHaveLength(1);
  });

  it('refuses a deferred length, which it does not advertise, before reserving anything', async () => {
    const { token, user } = await createUser(server);
    const response = await tusRequest(token, '/api/uploads', 'POST', {
      'Upload-Defer-Length': '1',
      'Upload-Metadata': metadataHeader({ filename: 'later.bin' }),
    });
    expect(response.status).toBe(411);
    expect((await storageTotals(server, user.id)).used).toBe(0);
  });

  it('terminates with DELETE: 204, then the upload is gone for HEAD and PATCH', async () => {
    const { token, user } = await createUser(server);
    const { location } = await createUpload(token, 20 * KiB, { filename: 'gone.bin' });
    expect((await patch(token, location, 0, randomBytes(5 * KiB))).status).toBe(204);
    const deleted = await tusRequest(token, location, 'DELETE');
    expect([deleted.status, deleted.headers.get('tus-resumable')]).toEqual([204, '1.0.0']);
    expect((await head(token, location)).status).toBe(404);
    expect((await patch(token, location, 5 * KiB, randomBytes(KiB))).status).toBe(404);
    expect((await storageTotals(server, user.id)).used).toBe(0);
  });

  it('reads X-HTTP-Method-Override as the method, for clients that cannot send PATCH or DELETE', async () => {
    const { token } = await createUser(server);
    const bytes = randomBytes(30 * KiB);
    const { location } = await createUpload(token, bytes.length, { filename: 'override.bin' });
    const first = await tusRequest(
      token,
      location,
      'POST',
      { 'X-HTTP-Method-Override': 'PATCH', 'Upload-Offset': '0', 'Content-Type': OCTETS },
      bytes.subarray(0, 10 * KiB),
    );
    expect([first.status, first.headers.get('upload-offset')]).toEqual([204, String(10 * KiB)]);
    const last = await tusRequest(
      token,
      location,
      'POST',
      { 'X-HTTP-Method-Override': 'PATCH', 'Upload-Offset': String(10 * KiB), 'Content-Type': OCTETS },
      bytes.subarray(10 * KiB),
    );
    expect(last.status).toBe(204);
    const [file] = await listFiles(server, token);
    expect([file?.id, file?.size]).toEqual([last.headers.get('x-file-id'), bytes.length]);

    const other = await createUpload(token, 10, { filename: 'dropped.bin' });
    const plainPost = await tusRequest(token, other.location, 'POST', { 'Content-Type': OCTETS, 'Upload-Offset': '0' }, Buffer.alloc(10));
    expect([plainPost.status, plainPost.headers.get('allow'), (await head(token, other.location)).headers.get('upload-offset')]).toEqual([
      405,
      'OPTIONS, HEAD, PATCH, DELETE, POST',
      '0',
    ]);
    const deleted = await tusRequest(token, other.location, 'POST', { 'X-HTTP-Method-Override': 'DELETE' });
    expect(deleted.status).toBe(204);
    expect((await head(token, other.location)).status).toBe(404);
  });

  describe('refusals', () => {
    it('answers 412 with Tus-Version to a request without Tus-Resumable or with another version, on every method', async () => {
      const { token } = await createUser(server);
      const { location } = await createUpload(token, 100, { filename: 'v.bin' });
      const cases: Array<[string, string, Record<string, string>]> = [
        ['/api/uploads', 'POST', { 'Upload-Length': '10', 'Upload-Metadata': metadataHeader({ filename: 'x.bin' }) }],
        [location, 'HEAD', {}],
        [location, 'PATCH', { 'Upload-Offset': '0', 'Content-Type': OCTETS }],
        [location, 'DELETE', {}],
      ];
      for (const version of [undefined, '0.2.2']) {
        for (const [url, method, headers] of cases) {
          const response = await fetch(new URL(url, server.url), {
            method,
            headers: { Authorization: `Bearer ${token}`, ...headers, ...(version ? { 'Tus-Resumable': version } : {}) },
            body: method === 'PATCH' ? Buffer.alloc(10) : undefined,
          });
          expect([method, version, response.status, response.headers.get('tus-version')]).toEqual([method, version, 412, '1.0.0']);
        }
      }
      // Nothing of that reached the upload.
      expect((await head(token, location)).headers.get('upload-offset')).toBe('0');
    });

    it('answers 415 to a PATCH whose body is not application/offset+octet-stream', async () => {
      const { token } = await createUser(server);
      const { location } = await createUpload(token, 100, { filename: 'type.bin' });
      const response = await patch(token, location, 0, Buffer.alloc(10), { 'Content-Type': 'application/octet-stream' });
      expect([response.status, await errorCode(response)]).toEqual([415, 'INVALID_CONTENT_TYPE']);
      expect((await head(token, location)).headers.get('upload-offset')).toBe('0');
    });

    it('answers a malformed header 400 in the same JSON shape as every other refusal', async () => {
      const { token } = await createUser(server);
      const { location } = await createUpload(token, 100, { filename: 'header.bin' });
      const response = await patch(token, location, 0, Buffer.alloc(10), { 'Upload-Offset': 'ten' });
      expect([response.status, response.headers.get('content-type'), await errorCode(response)]).toEqual([
        400,
        'application/json; charset=utf-8',
        'INVALID_TUS_REQUEST',
      ]);
    });

    it('answers 409 to a PATCH at another offset than the upload has', async () => {
      const { token } = await createUser(server);
      const { location } = await createUpload(token, 100, { filename: 'offset.bin' });
      expect((await patch(token, location, 0, Buffer.alloc(40))).status).toBe(204);
      for (const offset of [0, 39, 41]) {
        const response = await patch(token, location, offset, Buffer.alloc(10));
        expect([offset, response.status, await errorCode(response)]).toEqual([offset, 409, 'UPLOAD_OFFSET_CONFLICT']);
      }
      expect((await head(token, location)).headers.get('upload-offset')).toBe('40');
    });

    it('answers 413 to a length over the plan and to bytes past the declared length', async () => {
      const { token, user } = await createUser(server);
      const plan = server.container.plans.get('FREE');
      const tooLarge = await createUpload(token, (plan.maxFileSize ?? plan.storageLimit) + 1, { filename: 'big.bin' });
      expect(tooLarge.response.status).toBe(plan.maxFileSize === null ? 507 : 413);
      const { location } = await createUpload(token, 100, { filename: 'small.bin' });
      const past = await patch(token, location, 0, Buffer.alloc(101));
      expect(past.status).toBe(413);
      expect((await head(token, location)).headers.get('upload-offset')).toBe('0');
      expect((await storageTotals(server, user.id)).used).toBe(100);
    });
  });

  it('gives no other origin CORS headers, while requests from our own origin go through', async () => {
    const { token } = await createUser(server);
    const ours = await createUpload(token, 10, { filename: 'same-origin.bin' }, { Origin: server.url });
    expect(ours.response.status).toBe(201);
    const foreign = await createUpload(token, 10, { filename: 'foreign.bin' }, { Origin: 'https://elsewhere.example' });
    expect(foreign.response.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${server.url}/api/uploads`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  // Last: it moves the server's clock past every upload's expiry.
  it('answers 410 to a PATCH and a HEAD of an expired upload, so that a client starts again', async () => {
    const { token } = await createUser(server);
    const { location } = await createUpload(token, 100, { filename: 'late.bin' });
    expect((await patch(token, location, 0, Buffer.alloc(40))).status).toBe(204);
    server.clock.advance(DAY + 1000);
    const late = await patch(token, location, 40, Buffer.alloc(60));
    expect([late.status, await errorCode(late)]).toEqual([410, 'UPLOAD_EXPIRED']);
    expect((await head(token, location)).status).toBe(410);
  });
});
