import { createReadStream } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as tus from 'tus-js-client';
import { createUser } from '@cloudvault/test-support/accounts';
import { subscribe } from '@cloudvault/test-support/checkout';
import { createFolder, downloadFile, listFiles } from '@cloudvault/test-support/drive';
import { assertStorageConsistent } from './helpers/storage-totals.ts';
import { streamedRequest } from './helpers/streamed-request.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { randomFile, sha256OfResponse } from './helpers/tus-upload.ts';

// Upload links (file requests) and edit links receiving files (issue 38): what a visitor
// sends is the owner's, on the owner's quota and plan, refused before its body when it
// cannot be kept, limited per link and visitor, counted on the link and told to the owner.

const MiB = 1024 * 1024;
const HOUR = 60 * 60 * 1000;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const tokenOf = (shareUrl: string) => shareUrl.split('/s/')[1] as string;

/** An owner with a folder "Tax papers" and a link to it of `role`. */
async function ownerWithLink(role: string, body: Record<string, unknown> = {}) {
  const owner = await createUser(server);
  const folder = await createFolder(server, owner.token, 'Tax papers');
  const made = await server.request('POST', `/api/user/folders/${folder.id}/share`, {
    token: owner.token,
    body: { shareType: 'public', role, ...body },
  });
  expect(made.status).toBe(200);
  return { owner, folder, link: tokenOf(made.body.shareUrl), shareId: made.body.shareId as string };
}

/** A visitor's multipart upload through the link: the name field first, then the file, as the web page sends it. */
async function sendFile(
  link: string,
  content: string | Buffer,
  name: string,
  options: { uploaderName?: string; folderId?: string; headers?: Record<string, string>; from?: string } = {},
) {
  const form = new FormData();
  if (options.uploaderName !== undefined) form.append('uploaderName', options.uploaderName);
  if (options.folderId !== undefined) form.append('folderId', options.folderId);
  form.append('file', new Blob([content]), name);
  const encoded = new Response(form);
  return server.request('POST', `/api/public/shares/${link}/files`, {
    rawBody: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type') as string, ...options.headers },
    from: options.from,
  });
}

/** An upload declaring `bytes` that sends its body only after the server's 100 Continue: `bytesSent` 0 proves a refusal before it. */
function declareUpload(link: string, bytes: number, headers: string[] = []) {
  return streamedRequest({
    port: Number(new URL(server.url).port),
    head: [
      `POST /api/public/shares/${link}/files HTTP/1.1`,
      'Host: 127.0.0.1',
      'Content-Type: multipart/form-data; boundary=xyz',
      ...headers,
    ],
    prefix: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n',
    bodyBytes: bytes,
    suffix: '\r\n--xyz--\r\n',
  });
}

async function listedShare(token: string, shareId: string) {
  const listed = await server.request('GET', '/api/shares', { token });
  return (listed.body.shares as Array<Record<string, unknown>>).find((share) => share.id === shareId);
}

async function notices(token: string) {
  const answer = await server.request('GET', '/api/notifications', { token });
  return (answer.body.notifications as Array<{ type: string; details: Record<string, string>; read: boolean }>).filter(
    (notification) => notification.type === 'file_request_uploads',
  );
}

async function storageUsed(token: string): Promise<{ storageUsed: number; storageLimit: number }> {
  return (await server.request('GET', '/api/user/dashboard', { token })).body.storageInfo;
}

describe('a file sent through an upload link', () => {
  it("lands in the owner's folder under the visitor's name for it, on the owner's storage and the link's count, and answers only name and size", async () => {
    const { owner, folder, link, shareId } = await ownerWithLink('upload', { message: 'Your 2026 papers, please' });
    const sent = await sendFile(link, 'W-2 bytes', 'w2 form.pdf', { uploaderName: '  Bob  Client ' });
    expect(sent.status).toBe(201);
    expect(sent.body).toEqual({ file: { name: 'w2 form.pdf', size: 9 } });

    const files = await listFiles(server, owner.token, folder.id);
    expect(files.map((file) => [file.originalName, file.size])).toEqual([['w2 form.pdf', 9]]);
    expect((await downloadFile(server, owner.token, files[0]?.id as string)).bytes.toString()).toBe('W-2 bytes');
    expect((await storageUsed(owner.token)).storageUsed).toBe(9);
    expect(await assertStorageConsistent(server, owner.user.id)).toEqual({ used: 9, sum: 9 });
    expect(await listedShare(owner.token, shareId)).toMatchObject({ role: 'upload', uploadCount: 1 });

    // A taken name gets the next free one: nothing of the owner's is replaced through a link.
    const again = await sendFile(link, 'other bytes', 'w2 form.pdf');
    expect(again.status).toBe(201);
    expect(again.body).toEqual({ file: { name: 'w2 form (1).pdf', size: 11 } });
    const names = (await listFiles(server, owner.token, folder.id)).map((file) => file.originalName).sort();
    expect(names).toEqual(['w2 form (1).pdf', 'w2 form.pdf']);
    expect(await listedShare(owner.token, shareId)).toMatchObject({ uploadCount: 2 });

    // Nothing sent is listed or served back through the link.
    const fileId = files[0]?.id as string;
    for (const path of ['items', 'download', `files/${fileId}/download`]) {
      expect((await server.request('GET', `/api/public/shares/${link}/${path}`)).status).toBe(403);
    }

    // The folder's activity names the visitor as they signed, or "Someone".
    const activity = await server.request('GET', `/api/user/folders/${folder.id}/activity`, { token: owner.token });
    expect(activity.status).toBe(200);
    const uploaded = activity.body.activity as Array<Record<string, unknown>>;
    expect(uploaded.map((entry) => [entry.action, entry.name, (entry.actor as { name: string }).name]).sort()).toEqual([
      ['uploaded', 'w2 form (1).pdf', 'Someone'],
      ['uploaded', 'w2 form.pdf', 'Bob  Client'],
    ]);
  });

  it('cleans hostile names as every name, and refuses one that is nothing once cleaned', async () => {
    const { owner, folder, link } = await ownerWithLink('upload');
    expect((await sendFile(link, 'a', '../../etc/passwd')).status).toBe(201);
    // A browser's FormData escapes what a header cannot hold: control characters are sent raw, by hand.
    const raw = Buffer.from(
      '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a\u0007b\u001bc.txt"\r\n\r\nb\r\n--xyz--\r\n',
      'latin1',
    );
    const controls = await server.request('POST', `/api/public/shares/${link}/files`, {
      rawBody: raw,
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
    });
    expect(controls.body).toEqual({ file: { name: 'abc.txt', size: 1 } });
    expect((await sendFile(link, 'c', 'sub\\dir\\x.txt')).status).toBe(201);
    const dots = await sendFile(link, 'd', '..');
    expect(dots.status).toBe(400);
    expect(dots.body.code).toBe('INVALID_NAME');
    const names = (await listFiles(server, owner.token, folder.id)).map((file) => file.originalName);
    expect(names).toHaveLength(3);
    for (const name of names) expect([...name].filter((char) => char === '/' || char === '\\' || char.charCodeAt(0) < 32)).toEqual([]);
    expect(names).toContain('abc.txt');
    // Nothing landed anywhere else in the owner's drive.
    expect(await listFiles(server, owner.token, null)).toEqual([]);
  });

  it('refuses a visitor name over 100 characters, and keeps nothing', async () => {
    const { owner, folder, link } = await ownerWithLink('upload');
    const refused = await sendFile(link, 'x', 'x.txt', { uploaderName: 'n'.repeat(101) });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('UPLOADER_NAME_TOO_LONG');
    expect(await listFiles(server, owner.token, folder.id)).toEqual([]);
  });

  it('tells the owner once per link and window: two files are one notice of 2, a file after ten minutes a new one', async () => {
    const { owner, link } = await ownerWithLink('upload');
    await sendFile(link, 'one', 'one.txt', { uploaderName: 'Bob' });
    await sendFile(link, 'two', 'two.txt', { uploaderName: 'Carol' });
    const batched = await notices(owner.token);
    expect(batched).toHaveLength(1);
    expect(batched[0]?.details).toMatchObject({ folder: 'Tax papers', count: '2', names: 'Bob, Carol' });

    server.clock.advance(11 * 60 * 1000);
    await sendFile(link, 'three', 'three.txt');
    const later = await notices(owner.token);
    expect(later.map((notice) => notice.details.count)).toEqual(['1', '2']);
    expect(later[0]?.details.names).toBe('Someone');
  });

  it('adds files sent through two nodes to one notice and one count: the batch is kept in the database, not in a node', async () => {
    const { owner, folder, link, shareId } = await ownerWithLink('upload');
    // Six at once: within the plan's uploads at once, so none is refused for that.
    await subscribe(server, owner.token, 'PRO');
    const other = await server.startNode();
    try {
      const sendThrough = async (node: TestServer, i: number) => {
        const form = new FormData();
        form.append('uploaderName', `Visitor ${i % 2}`);
        form.append('file', new Blob([`bytes ${i}`]), `part ${i}.txt`);
        return (await fetch(`${node.url}/api/public/shares/${link}/files`, { method: 'POST', body: form })).status;
      };
      const statuses = await Promise.all(Array.from({ length: 6 }, (_, i) => sendThrough(i % 2 === 0 ? server : other, i)));
      expect(statuses).toEqual(Array(6).fill(201));
    } finally {
      await other.close();
    }
    expect(await listFiles(server, owner.token, folder.id)).toHaveLength(6);
    expect(await listedShare(owner.token, shareId)).toMatchObject({ uploadCount: 6 });
    const told = await notices(owner.token);
    expect(told).toHaveLength(1);
    expect(told[0]?.details.count).toBe('6');
    expect((told[0]?.details.names ?? '').split(', ').sort()).toEqual(['Visitor 0', 'Visitor 1']);
  });

  it('puts a file of an edit link in a folder inside the shared one, and refuses a folder outside it', async () => {
    const { owner, folder, link } = await ownerWithLink('edit');
    const inner = await createFolder(server, owner.token, 'Receipts', folder.id);
    const outside = await createFolder(server, owner.token, 'Private');
    expect((await sendFile(link, 'r', 'r.txt', { folderId: inner.id })).status).toBe(201);
    expect((await listFiles(server, owner.token, inner.id)).map((file) => file.originalName)).toEqual(['r.txt']);
    const refused = await sendFile(link, 's', 's.txt', { folderId: outside.id });
    expect(refused.status).toBe(404);
    expect(await listFiles(server, owner.token, outside.id)).toEqual([]);

    // An upload link's visitors see no folders: only the link's own folder takes files.
    const request = await ownerWithLink('upload');
    const deeper = await createFolder(server, request.owner.token, 'Deeper', request.folder.id);
    expect((await sendFile(request.link, 'd', 'd.txt', { folderId: deeper.id })).status).toBe(404);
  });
});

describe('refusals before the body', () => {
  it('a link that only shows is 403 UPLOADS_NOT_ALLOWED', async () => {
    for (const role of ['view', 'view-only']) {
      const { link } = await ownerWithLink(role);
      const answer = await declareUpload(link, 1000);
      expect([answer.status, answer.json?.code, answer.bytesSent]).toEqual([403, 'UPLOADS_NOT_ALLOWED', 0]);
    }
  });

  it("the owner's full quota is 507 and a file over the owner's largest is 413, with nothing kept", async () => {
    const { owner, folder, link } = await ownerWithLink('upload');
    const tooLarge = await declareUpload(link, 200 * MiB);
    expect([tooLarge.status, tooLarge.json?.code, tooLarge.bytesSent]).toEqual([413, 'FILE_TOO_LARGE', 0]);

    const { storageLimit } = await storageUsed(owner.token);
    await server.container.database.db
      .updateTable('users')
      .set({ storage_used: storageLimit - 1000 })
      .where('id', '=', owner.user.id)
      .execute();
    const full = await declareUpload(link, 5000);
    expect([full.status, full.json?.code, full.bytesSent]).toEqual([507, 'QUOTA_EXCEEDED', 0]);
    expect(await listFiles(server, owner.token, folder.id)).toEqual([]);
  });

  it('an expired link is 410, a revoked one 404, a protected one 401 until its pass is sent', async () => {
    const expiring = await ownerWithLink('upload', { expiresIn: 1 });
    server.clock.advance(2 * HOUR);
    const expired = await declareUpload(expiring.link, 1000);
    expect([expired.status, expired.json?.code, expired.bytesSent]).toEqual([410, 'SHARE_EXPIRED', 0]);

    const revoking = await ownerWithLink('upload');
    expect((await server.request('DELETE', `/api/shares/${revoking.shareId}`, { token: revoking.owner.token })).status).toBe(204);
    const revoked = await declareUpload(revoking.link, 1000);
    expect([revoked.status, revoked.json?.code, revoked.bytesSent]).toEqual([404, 'SHARE_NOT_FOUND', 0]);

    const owner = await createUser(server);
    await subscribe(server, owner.token, 'PRO');
    const folder = await createFolder(server, owner.token, 'Locked');
    const made = await server.request('POST', `/api/user/folders/${folder.id}/share`, {
      token: owner.token,
      body: { shareType: 'public', role: 'upload', password: 'open sesame' },
    });
    const link = tokenOf(made.body.shareUrl);
    const locked = await declareUpload(link, 1000);
    expect([locked.status, locked.json?.code, locked.bytesSent]).toEqual([401, 'SHARE_PASSWORD_REQUIRED', 0]);
    const unlocked = await server.request('POST', `/api/public/shares/${link}/access`, { body: { password: 'open sesame' } });
    const sent = await sendFile(link, 'secret', 'secret.txt', { headers: { 'x-share-access': unlocked.body.accessToken } });
    expect(sent.status).toBe(201);
    expect((await listFiles(server, owner.token, folder.id)).map((file) => file.originalName)).toEqual(['secret.txt']);
  });
});

describe('limits', () => {
  it('answers 429 past 200 uploads an hour from one visitor to one link, while another visitor still sends', async () => {
    const { owner, folder, link } = await ownerWithLink('upload');
    // Counted as each upload starts, through either way in: refused ones count too (here tus
    // creations of a name that is nothing once cleaned, refused before any quota is held).
    const badCreation = () =>
      server.request('POST', `/api/public/shares/${link}/uploads`, {
        from: '127.0.0.3',
        headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': '10', 'Upload-Metadata': `filename ${Buffer.from('..').toString('base64')}` },
      });
    for (let batch = 0; batch < 200; batch += 25) {
      const answers = await Promise.all(Array.from({ length: 25 }, badCreation));
      expect(answers.map((answer) => answer.body.code)).toEqual(Array(25).fill('INVALID_NAME'));
    }
    const limited = await sendFile(link, 'x', 'x.txt', { from: '127.0.0.3' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await sendFile(link, 'y', 'y.txt', { from: '127.0.0.4' })).status).toBe(201);
    expect((await listFiles(server, owner.token, folder.id)).map((file) => file.originalName)).toEqual(['y.txt']);
    server.clock.advance(HOUR + 1000);
    expect((await sendFile(link, 'z', 'z.txt', { from: '127.0.0.3' })).status).toBe(201);
  });
});

/** A tus upload through the link with the real client, stopped after `stopAfterChunks` chunks when given. */
function tusThroughLink(options: {
  link: string;
  filePath: string;
  metadata: Record<string, string>;
  uploadUrl?: string;
  stopAfterChunks?: number;
  headers?: Record<string, string>;
}): Promise<{ uploadUrl: string; stopped: boolean }> {
  return new Promise((resolve, reject) => {
    let chunks = 0;
    const upload: tus.Upload = new tus.Upload(createReadStream(options.filePath), {
      endpoint: `${server.url}/api/public/shares/${options.link}/uploads`,
      uploadUrl: options.uploadUrl ?? null,
      headers: options.headers ?? {},
      metadata: options.metadata,
      chunkSize: MiB,
      retryDelays: [],
      storeFingerprintForResuming: false,
      onChunkComplete: () => {
        chunks += 1;
        if (chunks === options.stopAfterChunks) {
          void upload.abort(false).then(() => resolve({ uploadUrl: upload.url as string, stopped: true }));
        }
      },
      onSuccess: () => resolve({ uploadUrl: upload.url as string, stopped: false }),
      onError: reject,
    });
    upload.start();
  });
}

describe('a resumable upload through a link', () => {
  it("is the owner's, resumed after a stop, and lands like a multipart one: counted once and told once", async () => {
    const { owner, folder, link, shareId } = await ownerWithLink('upload');
    const source = await randomFile(3 * MiB + 77, 'scan.pdf');
    const metadata = { filename: 'scan.pdf', filetype: 'application/pdf', uploaderName: 'Dora' };
    const first = await tusThroughLink({ link, filePath: source.path, metadata, stopAfterChunks: 1 });
    expect(first.stopped).toBe(true);
    expect(new URL(first.uploadUrl, server.url).pathname).toMatch(new RegExp(`^/api/public/shares/${link}/uploads/[A-Za-z0-9_-]+$`));
    // Held on the owner's quota from creation, before the bytes.
    expect(await listFiles(server, owner.token, folder.id)).toEqual([]);
    const head = await fetch(new URL(first.uploadUrl, server.url), { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('upload-offset'))).toBe(MiB);

    // Another link's token does not reach it; nor does the upload route of an account.
    const other = await ownerWithLink('upload');
    const uploadId = first.uploadUrl.split('/').pop() as string;
    const elsewhere = await fetch(`${server.url}/api/public/shares/${other.link}/uploads/${uploadId}`, {
      method: 'HEAD',
      headers: { 'Tus-Resumable': '1.0.0' },
    });
    expect(elsewhere.status).toBe(404);
    const stranger = await createUser(server);
    const asAccount = await fetch(`${server.url}/api/uploads/${uploadId}`, {
      method: 'HEAD',
      headers: { 'Tus-Resumable': '1.0.0', Authorization: `Bearer ${stranger.token}` },
    });
    expect(asAccount.status).toBe(404);

    const resumed = await tusThroughLink({ link, filePath: source.path, metadata, uploadUrl: first.uploadUrl });
    expect(resumed.stopped).toBe(false);
    const files = await listFiles(server, owner.token, folder.id);
    expect(files.map((file) => [file.originalName, file.size])).toEqual([['scan.pdf', 3 * MiB + 77]]);
    expect(
      await sha256OfResponse(
        await fetch(`${server.url}/api/files/${files[0]?.id}/download`, {
          headers: { Authorization: `Bearer ${owner.token}` },
        }),
      ),
    ).toBe(source.sha256);
    expect(await assertStorageConsistent(server, owner.user.id)).toEqual({ used: 3 * MiB + 77, sum: 3 * MiB + 77 });

    // A HEAD after the end (a client whose last answer was lost) counts nothing again.
    const after = await fetch(new URL(first.uploadUrl, server.url), { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } });
    expect(after.status).toBe(200);
    // The visitor is told nothing of the owner's drive, not the new file's id either.
    expect(after.headers.get('x-file-id')).toBeNull();
    expect(await listedShare(owner.token, shareId)).toMatchObject({ uploadCount: 1 });
    const told = await notices(owner.token);
    expect(told.map((notice) => notice.details)).toEqual([{ shareId, folder: 'Tax papers', count: '1', names: 'Dora' }]);

    // A same-named second file gets the next free name, as through the multipart route.
    const small = await randomFile(1000, 'scan.pdf');
    await tusThroughLink({ link, filePath: small.path, metadata: { filename: 'scan.pdf' } });
    expect((await listFiles(server, owner.token, folder.id)).map((file) => file.originalName).sort()).toEqual(['scan (1).pdf', 'scan.pdf']);
  });

  it('is refused at creation as the multipart route is (a view link 403, a full quota 507), stopped by a revoke, and cancelled by its visitor', async () => {
    const view = await ownerWithLink('view');
    const source = await randomFile(2 * MiB, 'x.bin');
    await expect(tusThroughLink({ link: view.link, filePath: source.path, metadata: { filename: 'x.bin' } })).rejects.toThrow(
      /response code: 403/,
    );

    const { owner, link, shareId } = await ownerWithLink('upload');
    const started = await tusThroughLink({ link, filePath: source.path, metadata: { filename: 'x.bin' }, stopAfterChunks: 1 });
    expect((await server.request('DELETE', `/api/shares/${shareId}`, { token: owner.token })).status).toBe(204);
    await expect(
      tusThroughLink({ link, filePath: source.path, metadata: { filename: 'x.bin' }, uploadUrl: started.uploadUrl }),
    ).rejects.toThrow(/response code: 404/);

    // A visitor's cancel ends the upload and gives the owner's quota back.
    const cancelling = await ownerWithLink('upload');
    const begun = await tusThroughLink({
      link: cancelling.link,
      filePath: source.path,
      metadata: { filename: 'x.bin' },
      stopAfterChunks: 1,
    });
    const tusHeaders = { 'Tus-Resumable': '1.0.0' };
    expect((await fetch(new URL(begun.uploadUrl, server.url), { method: 'DELETE', headers: tusHeaders })).status).toBe(204);
    expect((await fetch(new URL(begun.uploadUrl, server.url), { method: 'HEAD', headers: tusHeaders })).status).toBe(404);
    expect(await assertStorageConsistent(server, cancelling.owner.user.id)).toEqual({ used: 0, sum: 0 });
    const reserved = await server.container.database.db
      .selectFrom('upload_reservations')
      .select('id')
      .where('user_id', '=', cancelling.owner.user.id)
      .execute();
    expect(reserved).toEqual([]);

    const full = await ownerWithLink('upload');
    const { storageLimit } = await storageUsed(full.owner.token);
    await server.container.database.db
      .updateTable('users')
      .set({ storage_used: storageLimit - MiB })
      .where('id', '=', full.owner.user.id)
      .execute();
    await expect(tusThroughLink({ link: full.link, filePath: source.path, metadata: { filename: 'x.bin' } })).rejects.toThrow(
      /response code: 507/,
    );
  });
});
