import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { sha256OfResponse } from './helpers/tus-upload.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

// One user's tus requests must never reach another user's upload, whatever the raw URL
// says after the id the route checked (docs/decisions/0025-resumable-uploads.md). The
// requests go out through node:http, which sends the path byte for byte: fetch would
// normalise `/../` and drop a fragment before the server saw them.

const KiB = 1024;
const OCTETS = 'application/offset+octet-stream';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function rawRequest(method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<RawAnswer> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: hostname,
        port,
        method,
        path,
        headers: { 'Tus-Resumable': '1.0.0', ...headers, 'Content-Length': String(body?.length ?? 0) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function createUpload(token: string, length: number, filename: string): Promise<string> {
  const created = await rawRequest('POST', '/api/uploads', {
    ...bearer(token),
    'Upload-Length': String(length),
    'Upload-Metadata': `filename ${Buffer.from(filename).toString('base64')}`,
  });
  expect(created.status).toBe(201);
  return String(created.headers.location).split('/').pop() as string;
}

const patchAt = (token: string, id: string, offset: number, bytes: Buffer) =>
  rawRequest('PATCH', `/api/uploads/${id}`, { ...bearer(token), 'Upload-Offset': String(offset), 'Content-Type': OCTETS }, bytes);

async function offsetOf(token: string, id: string): Promise<{ offset: string | undefined; length: string | undefined }> {
  const answer = await rawRequest('HEAD', `/api/uploads/${id}`, bearer(token));
  expect(answer.status).toBe(200);
  return { offset: answer.headers['upload-offset'] as string | undefined, length: answer.headers['upload-length'] as string | undefined };
}

/** The raw URLs that name the caller's own upload to the router and another one after it. */
const smuggled = (mine: string, theirs: string) => ({
  'a query string': `/api/uploads/${mine}?/../${theirs}`,
  'a named query parameter': `/api/uploads/${mine}?next=/../${theirs}`,
  'a fragment': `/api/uploads/${mine}#/../${theirs}`,
  'percent-encoded slashes': `/api/uploads/${mine}%2F..%2F${theirs}`,
  'a semicolon': `/api/uploads/${mine};/../${theirs}`,
});

describe('a tus request reaches the upload its route checked and no other', () => {
  const victimBytes = randomBytes(96 * KiB + 5);
  const firstPart = 40 * KiB;
  let victim: { token: string };
  let attacker: { token: string };
  let victimUpload: string;
  let attackerUpload: string;

  beforeAll(async () => {
    [victim, attacker] = await Promise.all([createUser(server), createUser(server)]);
  });
  // Fresh uploads for each attempt, so that one that got through cannot hide or fake another's outcome.
  beforeEach(async () => {
    victimUpload = await createUpload(victim.token, victimBytes.length, 'Payroll 2026.xlsx');
    expect((await patchAt(victim.token, victimUpload, 0, victimBytes.subarray(0, firstPart))).status).toBe(204);
    attackerUpload = await createUpload(attacker.token, victimBytes.length, 'innocent.bin');
  });
  // Each unfinished upload holds one of its owner's upload slots until it is terminated.
  afterEach(async () => {
    await rawRequest('DELETE', `/api/uploads/${victimUpload}`, bearer(victim.token));
    await rawRequest('DELETE', `/api/uploads/${attackerUpload}`, bearer(attacker.token));
  });

  const expectRefusedAsJson = (answer: RawAnswer, method: string) => {
    expect(answer.status, `${method} answered ${answer.status}: ${answer.body}`).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(String(answer.headers['content-type'])).toMatch(/^application\/json/);
    // A HEAD answer has no body to read.
    if (method !== 'HEAD') expect(JSON.parse(answer.body)).toMatchObject({ error: expect.any(String), code: expect.any(String) });
    // Nothing of anyone's upload answers a refused request.
    expect(answer.headers['upload-offset']).toBeUndefined();
    expect(answer.headers['upload-length']).toBeUndefined();
    expect(answer.headers['upload-metadata']).toBeUndefined();
  };

  const expectVictimUntouched = async () => {
    expect(await offsetOf(victim.token, victimUpload)).toEqual({ offset: String(firstPart), length: String(victimBytes.length) });
  };

  for (const variant of Object.keys(smuggled('mine', 'theirs')) as (keyof ReturnType<typeof smuggled>)[]) {
    describe(`through ${variant}`, () => {
      const url = () => smuggled(attackerUpload, victimUpload)[variant];

      it('HEAD tells nothing of the other upload', async () => {
        expectRefusedAsJson(await rawRequest('HEAD', url(), bearer(attacker.token)), 'HEAD');
        await expectVictimUntouched();
      });

      it('PATCH writes nothing into the other upload', async () => {
        const answer = await rawRequest(
          'PATCH',
          url(),
          { ...bearer(attacker.token), 'Upload-Offset': String(firstPart), 'Content-Type': OCTETS },
          randomBytes(victimBytes.length - firstPart),
        );
        expectRefusedAsJson(answer, 'PATCH');
        await expectVictimUntouched();
      });

      it('PATCH by POST and X-HTTP-Method-Override writes nothing into it', async () => {
        const answer = await rawRequest(
          'POST',
          url(),
          { ...bearer(attacker.token), 'X-HTTP-Method-Override': 'PATCH', 'Upload-Offset': String(firstPart), 'Content-Type': OCTETS },
          randomBytes(16 * KiB),
        );
        expectRefusedAsJson(answer, 'POST');
        await expectVictimUntouched();
      });

      it('DELETE, and DELETE by POST, remove neither upload', async () => {
        expectRefusedAsJson(await rawRequest('DELETE', url(), bearer(attacker.token)), 'DELETE');
        expectRefusedAsJson(await rawRequest('POST', url(), { ...bearer(attacker.token), 'X-HTTP-Method-Override': 'DELETE' }), 'POST');
        await expectVictimUntouched();
        expect((await offsetOf(attacker.token, attackerUpload)).offset).toBe('0');
      });
    });
  }

  it('refuses a creation whose URL carries a query or a fragment, and creates nothing', async () => {
    for (const path of [`/api/uploads?/../${victimUpload}`, `/api/uploads#/../${victimUpload}`]) {
      const answer = await rawRequest('POST', path, {
        ...bearer(attacker.token),
        'Upload-Length': '10',
        'Upload-Metadata': `filename ${Buffer.from('x.bin').toString('base64')}`,
      });
      expectRefusedAsJson(answer, 'POST');
      expect(answer.headers.location).toBeUndefined();
    }
    await expectVictimUntouched();
  });

  it('leaves the other upload to finish with exactly its own bytes', async () => {
    const rest = await patchAt(victim.token, victimUpload, firstPart, victimBytes.subarray(firstPart));
    expect(rest.status).toBe(204);
    const fileId = String(rest.headers['x-file-id']);
    const download = await fetch(`${server.url}/api/files/${fileId}/download`, { headers: bearer(victim.token) });
    expect(download.status).toBe(200);
    expect(await sha256OfResponse(download)).toBe(sha256(victimBytes));
  });
});
