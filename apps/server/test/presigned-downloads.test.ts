import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { subscribe } from '@cloudvault/test-support/checkout';
import { createFile, createFolder } from '@cloudvault/test-support/drive';
import { createVerifiedUser } from './helpers/factories.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

// S3_PRESIGNED_DOWNLOADS on an s3rver of this file's own, whatever TEST_STORAGE says
// (docs/decisions/0022). s3rver checks signatures and expiry by its own clock and honours
// the response-* overrides, so what the client gets from the store is asserted directly.
let server: TestServer;
let store: URL;

beforeAll(async () => {
  // s3rver compares a URL's signing time with the real time: the test clock starts there.
  server = await startTestServer({ storage: 's3', env: { S3_PRESIGNED_DOWNLOADS: 'true' }, clockStart: new Date() });
  const { storage } = server.container.config;
  if (storage.driver !== 's3' || !storage.endpoint) throw new Error('this file needs the S3 store it asked for');
  store = new URL(storage.endpoint);
});
afterAll(() => server.close());

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Asks the server, not following the answer: it must be a redirect into the bucket. */
async function redirectOf(path: string, headers: Record<string, string> = {}): Promise<URL> {
  const response = await fetch(`${server.url}${path}`, { headers, redirect: 'manual' });
  expect(response.status, await response.clone().text()).toBe(302);
  expect(response.headers.get('cache-control')).toBe('private, no-store');
  // The page that started the download (a share page names its token) is not told to the bucket.
  expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  const location = new URL(response.headers.get('location') ?? '');
  expect(location.origin).toBe(store.origin);
  return location;
}

/** What the store answers to a client that follows the redirect (no bearer: it is another origin). */
async function fromStore(location: URL, headers: Record<string, string> = {}) {
  const response = await fetch(location, { headers });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A GET with exactly these headers (fetch would replace Sec-Fetch-Mode with "cors"). */
function rawGet(path: string, headers: Record<string, string>): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${server.url}${path}`, { headers }, (response) => {
      response.resume();
      resolve({ status: response.statusCode ?? 0, location: response.headers.location });
    });
    request.on('error', reject);
  });
}

describe('downloads straight from S3', () => {
  it('answers a file download with a 302 to the bucket, whose answer has our bytes, disposition, type and caching', async () => {
    const { token } = await createUser(server);
    const bytes = randomBytes(256 * 1024);
    const file = await createFile(server, token, bytes, { name: 'Résumé «final».html', type: 'text/html' });

    const location = await redirectOf(`/api/files/${file.id}/download`, bearer(token));
    expect(location.pathname).toMatch(/^\/cloudvault-test\/blobs\/[\w-]+$/);
    expect(location.searchParams.get('X-Amz-Expires')).toBe('300');
    const whole = await fromStore(location);
    expect(whole.status).toBe(200);
    expect(sha256(whole.bytes)).toBe(sha256(bytes));
    expect(whole.headers.get('content-disposition')).toBe(
      `attachment; filename="Resume _final_.html"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%C2%ABfinal%C2%BB.html`,
    );
    // HTML never comes back as a page, from the bucket either.
    expect(whole.headers.get('content-type')).toBe('application/octet-stream');
    expect(whole.headers.get('cache-control')).toBe('private, no-cache');

    // A Range goes to the store: the client repeats it after the redirect.
    const part = await fromStore(await redirectOf(`/api/files/${file.id}/download`, { ...bearer(token), range: 'bytes=1000-1999' }), {
      range: 'bytes=1000-1999',
    });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${bytes.length}`);
    expect(part.bytes.equals(bytes.subarray(1000, 2000))).toBe(true);

    const image = await createFile(server, token, randomBytes(1000), { name: 'photo.png', type: 'image/png' });
    expect((await fromStore(await redirectOf(`/api/files/${image.id}/download`, bearer(token)))).headers.get('content-type')).toBe(
      'image/png',
    );
  });

  it('streams what a page loads into itself (the viewer) and redirects downloads', async () => {
    const { token } = await createUser(server);
    const bytes = randomBytes(64 * 1024);
    const file = await createFile(server, token, bytes, { name: 'clip.webm', type: 'video/webm' });
    // What an <img>, <video> or <audio> sends (no-cors), and pdf.js's or the text preview's fetch.
    for (const [destination, mode] of [
      ['video', 'no-cors'],
      ['audio', 'no-cors'],
      ['image', 'no-cors'],
      ['empty', 'cors'],
      ['empty', 'same-origin'],
    ]) {
      const response = await fetch(`${server.url}/api/files/${file.id}/download`, {
        headers: { ...bearer(token), 'sec-fetch-dest': destination, 'sec-fetch-mode': mode, range: 'bytes=0-1023' },
        redirect: 'manual',
      });
      expect(response.status, `${destination} ${mode}`).toBe(206);
      expect(Buffer.from(await response.arrayBuffer()).equals(bytes.subarray(0, 1024))).toBe(true);
    }
    // A download is a navigation, whatever its destination (Node's fetch cannot send that mode).
    for (const destination of ['empty', 'document']) {
      const answer = await rawGet(`/api/files/${file.id}/download`, {
        ...bearer(token),
        'sec-fetch-dest': destination,
        'sec-fetch-mode': 'navigate',
      });
      expect(answer.status, destination).toBe(302);
      expect(new URL(answer.location ?? '').origin).toBe(store.origin);
    }
  });

  it('still answers 304, 416, HEAD, a stale If-Range and every refusal itself', async () => {
    const { token } = await createUser(server);
    const bytes = randomBytes(4096);
    const file = await createFile(server, token, bytes, { name: 'data.bin' });
    const path = `/api/files/${file.id}/download`;
    const ask = (init: RequestInit) =>
      fetch(`${server.url}${path}`, {
        redirect: 'manual',
        ...init,
        headers: { ...bearer(token), ...(init.headers as Record<string, string>) },
      });

    const notModified = await ask({ headers: { 'if-none-match': `"${sha256(bytes)}"` } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('etag')).toBe(`"${sha256(bytes)}"`);

    const unsatisfiable = await ask({ headers: { range: 'bytes=5000-' } });
    expect(unsatisfiable.status).toBe(416);
    expect(await unsatisfiable.json()).toMatchObject({ code: 'RANGE_NOT_SATISFIABLE' });

    const head = await ask({ method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('4096');
    expect(head.headers.get('content-disposition')).toBe(`attachment; filename="data.bin"; filename*=UTF-8''data.bin`);

    // A Range whose If-Range names other bytes gets the whole file; the store would send the part.
    const stale = await ask({ headers: { range: 'bytes=0-9', 'if-range': '"another-version"' } });
    expect(stale.status).toBe(200);
    expect(sha256(Buffer.from(await stale.arrayBuffer()))).toBe(sha256(bytes));

    const stranger = await createUser(server);
    const refused = await fetch(`${server.url}${path}`, { headers: bearer(stranger.token), redirect: 'manual' });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ code: 'FILE_NOT_FOUND' });
    expect((await fetch(`${server.url}${path}`, { redirect: 'manual' })).status).toBe(401);
  });

  it('hands out URLs the store refuses once expired, signed with our headers', async () => {
    const { token } = await createUser(server);
    const file = await createFile(server, token, randomBytes(2048), { name: 'secret.bin' });
    const path = `/api/files/${file.id}/download`;

    const lifetime = 5 * 60 * 1000;
    server.clock.advance(-lifetime - 60_000);
    const signedLongAgo = await redirectOf(path, bearer(token));
    server.clock.advance(lifetime + 60_000);
    const expired = await fromStore(signedLongAgo);
    expect(expired.status).toBe(403);
    expect(expired.bytes.toString()).toContain('Request has expired');

    // SigV4 signs every query parameter but the signature, so a client that changed an
    // override would be refused by S3. s3rver checks no V4 signature (its code says
    // "unimplemented"), so here the parameters themselves are asserted.
    const signed = await redirectOf(path, bearer(token));
    expect(Object.fromEntries([...signed.searchParams].filter(([name]) => !/^X-Amz-(Signature|Credential|Date)$/.test(name)))).toEqual({
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD',
      'X-Amz-Expires': '300',
      'X-Amz-SignedHeaders': 'host',
      'x-id': 'GetObject',
      'response-cache-control': 'private, no-cache',
      'response-content-disposition': `attachment; filename="secret.bin"; filename*=UTF-8''secret.bin`,
      'response-content-type': 'application/octet-stream',
    });
  });

  it('redirects signed links, versions, public and private shares after their own checks; zips still stream', async () => {
    const owner = await createUser(server);
    await subscribe(server, owner.token, 'PREMIUM');
    const folder = await createFolder(server, owner.token, 'Reports');
    const first = randomBytes(3000);
    const second = randomBytes(5000);
    const file = await createFile(server, owner.token, first, { name: 'q3.pdf', type: 'application/pdf', folderId: folder.id });
    await createFile(server, owner.token, second, { name: 'q3.pdf', type: 'application/pdf', folderId: folder.id });

    // A signed link, as the web app downloads (native navigation follows the redirect).
    const link = await server.request('POST', `/api/files/${file.id}/download-link`, { token: owner.token });
    const linked = await fromStore(await redirectOf(link.body.url));
    expect(sha256(linked.bytes)).toBe(sha256(second));
    expect(linked.headers.get('content-type')).toBe('application/pdf');
    const forged = await fetch(`${server.url}/api/downloads/not-a-token`, { redirect: 'manual' });
    expect(forged.status).toBe(404);
    expect(await forged.json()).toMatchObject({ code: 'DOWNLOAD_LINK_INVALID' });

    // The earlier version, by the bearer route and by its link.
    const [version] = (await server.request('GET', `/api/files/${file.id}/versions`, { token: owner.token })).body.versions as Array<{
      id: string;
    }>;
    const versionPath = `/api/files/${file.id}/versions/${version?.id}`;
    expect(sha256((await fromStore(await redirectOf(`${versionPath}/download`, bearer(owner.token)))).bytes)).toBe(sha256(first));
    const versionLink = await server.request('POST', `${versionPath}/download-link`, { token: owner.token });
    expect(sha256((await fromStore(await redirectOf(versionLink.body.url))).bytes)).toBe(sha256(first));

    // A password link: refused as before until unlocked, counted once when a download starts.
    const settings = (await server.request('GET', '/api/user/settings', { token: owner.token })).body.settings;
    await server.request('PUT', '/api/user/settings', {
      token: owner.token,
      body: { ...settings, privacy: { ...settings.privacy, shareAnalytics: true } },
    });
    const shared = await server.request('POST', `/api/files/${file.id}/share`, { token: owner.token, body: { password: 'open sesame' } });
    const shareToken = new URL(shared.body.shareUrl).pathname.split('/').pop() as string;
    const locked = await fetch(`${server.url}/api/public/shares/${shareToken}/download`, { redirect: 'manual' });
    expect(locked.status).toBe(401);
    expect(await locked.json()).toMatchObject({ code: 'SHARE_PASSWORD_REQUIRED' });
    const { accessToken } = (await server.request('POST', `/api/public/shares/${shareToken}/access`, { body: { password: 'open sesame' } }))
      .body;
    const shareDownload = `/api/public/shares/${shareToken}/download?access=${accessToken}`;
    expect(sha256((await fromStore(await redirectOf(shareDownload))).bytes)).toBe(sha256(second));
    await redirectOf(shareDownload, { range: 'bytes=10-' });
    const shares = (await server.request('GET', '/api/shares', { token: owner.token })).body.shares;
    expect(shares).toEqual([expect.objectContaining({ id: shared.body.shareId, downloadCount: 1 })]);

    // A folder link: the zip streams through the server, a file inside redirects.
    const folderLink = await server.request('POST', `/api/user/folders/${folder.id}/share`, {
      token: owner.token,
      body: { shareType: 'public' },
    });
    const folderToken = new URL(folderLink.body.shareUrl).pathname.split('/').pop() as string;
    const zip = await fetch(`${server.url}/api/public/shares/${folderToken}/download`, { redirect: 'manual' });
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    await zip.arrayBuffer();
    expect(sha256((await fromStore(await redirectOf(`/api/public/shares/${folderToken}/files/${file.id}/download`))).bytes)).toBe(
      sha256(second),
    );

    // A folder shared privately: the recipient's download redirects, the zip streams.
    const recipient = await createVerifiedUser(server);
    await server.request('POST', `/api/user/folders/${folder.id}/share`, {
      token: owner.token,
      body: { shareType: 'private', email: recipient.email },
    });
    expect(sha256((await fromStore(await redirectOf(`/api/files/${file.id}/download`, bearer(recipient.token)))).bytes)).toBe(
      sha256(second),
    );
    const privateZip = await fetch(`${server.url}/api/user/folders/${folder.id}/download`, {
      headers: bearer(recipient.token),
      redirect: 'manual',
    });
    expect(privateZip.status).toBe(200);
    expect(privateZip.headers.get('content-type')).toBe('application/zip');
    await privateZip.arrayBuffer();
  });
});
