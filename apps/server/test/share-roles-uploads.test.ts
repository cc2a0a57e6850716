import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { changesMadeBy } from '@cloudvault/test-support/changes';
import { createFile, createFolder, downloadFile, listFiles, uploadFile } from '@cloudvault/test-support/drive';
import { createVerifiedUser } from './helpers/factories.ts';
import { assertStorageConsistent } from './helpers/storage-totals.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { tusUpload } from './helpers/tus-upload.ts';

// Editors' uploads, versions and copies inside a folder shared with them
// (docs/decisions/0061-share-roles.md): everything inside is the owner's, on the owner's
// quota and plan; a viewer's attempt is 403 READ_ONLY_SHARE.

const KiB = 1024;
const MiB = 1024 * KiB;

let server: TestServer;
let plansDir: string;

beforeAll(async () => {
  plansDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-share-roles-uploads-'));
  const plan = {
    price: 0,
    description: 'test',
    features: [],
    popular: false,
    prioritySupport: false,
    maxConcurrentUploads: 3,
    capabilities: { passwordProtectedLinks: false, maxShareExpiryHours: 24, versioning: false, analytics: false },
  };
  const plansFile = path.join(plansDir, 'plans.json');
  await writeFile(
    plansFile,
    JSON.stringify([
      // Free: 1 MiB per file, so a 2 MiB upload is 413.
      { ...plan, id: 'FREE', name: 'Free', storageLimit: 100 * MiB, maxFileSize: MiB },
      // Pro: no per-file limit, 2 MiB of storage: full soon, and its 80 % is reached by one upload.
      { ...plan, id: 'PRO', name: 'Pro', storageLimit: 2 * MiB, maxFileSize: null },
      // Business: room for everything, with versions.
      {
        ...plan,
        id: 'PREMIUM',
        name: 'Business',
        storageLimit: 100 * MiB,
        maxFileSize: null,
        capabilities: { ...plan.capabilities, versioning: true },
      },
    ]),
  );
  server = await startTestServer({ env: { PLANS_FILE: plansFile } });
});
afterAll(async () => {
  await server.close();
  await rm(plansDir, { recursive: true, force: true });
});

type PlanId = 'FREE' | 'PRO' | 'PREMIUM';
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function setPlan(userId: string, plan: PlanId): Promise<void> {
  await server.container.database.db.updateTable('users').set({ plan_id: plan }).where('id', '=', userId).execute();
}

async function storageUsed(token: string): Promise<number> {
  return (await server.request('GET', '/api/user/dashboard', { token })).body.storageInfo.storageUsed;
}

/** An owner on `ownerPlan` with a folder "Team" shared with a Business editor and a viewer. */
async function team(ownerPlan: PlanId) {
  const owner = await createUser(server);
  await setPlan(owner.user.id, ownerPlan);
  const editor = await createVerifiedUser(server);
  await setPlan(editor.user.id, 'PREMIUM');
  const viewer = await createVerifiedUser(server);
  const folder = await createFolder(server, owner.token, 'Team');
  const shareIds: string[] = [];
  for (const [person, role] of [
    [editor, 'editor'],
    [viewer, 'viewer'],
  ] as const) {
    const share = await server.request('POST', `/api/user/folders/${folder.id}/share`, {
      token: owner.token,
      body: { shareType: 'private', email: person.email, role },
    });
    expect(share.status, share.text).toBe(200);
    shareIds.push(share.body.share.id as string);
  }
  return { owner, editor, viewer, folder, editorShareId: shareIds[0]! };
}

/** Creates a tus upload by hand (no byte of it sent) and answers the server's answer. */
async function tusCreate(token: string, length: number, metadata: Record<string, string>) {
  const encoded = Object.entries(metadata).map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`);
  const response = await fetch(`${server.url}/api/uploads`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      'Tus-Resumable': '1.0.0',
      'Upload-Length': String(length),
      'Upload-Metadata': encoded.join(','),
    },
  });
  const text = await response.text();
  return {
    status: response.status,
    location: response.headers.get('location'),
    body: text ? (JSON.parse(text) as { code?: string; error?: string }) : undefined,
  };
}

/** A tus PATCH of `bytes` at `offset`, by hand. */
async function tusPatch(token: string, location: string, offset: number, bytes: Uint8Array) {
  const response = await fetch(new URL(location, server.url), {
    method: 'PATCH',
    headers: {
      Authorization: `Bearer ${token}`,
      'Tus-Resumable': '1.0.0',
      'Upload-Offset': String(offset),
      'Content-Type': 'application/offset+octet-stream',
    },
    body: bytes,
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as { code?: string }) : undefined };
}

/** A file on disk for tus, removed by the caller. */
async function tempFile(bytes: Uint8Array): Promise<string> {
  const filePath = path.join(plansDir, `tus-${randomBytes(6).toString('hex')}.bin`);
  await writeFile(filePath, bytes);
  return filePath;
}

/**
 * A multipart upload that declares `fileBytes` and sends its `folderId` field, the file
 * part's head and its first kilobyte (the parser holds back a possible boundary), then
 * stops: it answers what the server says without the rest of the file (or undefined when
 * the server waits for it).
 */
async function answerBeforeFileBytes(token: string, folderId: string, fileBytes: number) {
  const boundary = 'share-roles-boundary';
  const fields = `--${boundary}\r\nContent-Disposition: form-data; name="folderId"\r\n\r\n${folderId}\r\n`;
  const fileHead = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const port = Number(new URL(server.url).port);
  const socket = net.connect({ port, host: '127.0.0.1' });
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  socket.on('error', () => {});
  const head = [
    'POST /api/files/upload HTTP/1.1',
    `Host: 127.0.0.1:${port}`,
    `Authorization: Bearer ${token}`,
    `Content-Type: multipart/form-data; boundary=${boundary}`,
    `Content-Length: ${fields.length + fileHead.length + fileBytes + tail.length}`,
    '',
    '',
  ].join('\r\n');
  socket.write(head + fields + fileHead);
  socket.write(Buffer.alloc(KiB));
  const deadline = Date.now() + 10_000;
  while (!/\r\n\r\n[\s\S]*}/.test(received) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  socket.destroy();
  const match = /^HTTP\/1\.1 (\d{3})[\s\S]*?\r\n\r\n([\s\S]*)$/.exec(received);
  if (!match) return undefined;
  return { status: Number(match[1]), body: JSON.parse(match[2]!) as { code?: string; error?: string } };
}

describe("an editor's uploads into a shared folder", () => {
  it("land in the owner's folder, multipart and tus, counted on the owner's storage and not the editor's", async () => {
    const { owner, editor, folder } = await team('PREMIUM');
    const bytes = randomBytes(30_000);
    let uploaded: Awaited<ReturnType<typeof uploadFile>> | undefined;
    const changes = await changesMadeBy(server, owner.token, async () => {
      uploaded = await uploadFile(server, editor.token, bytes, { name: 'report.pdf', folderId: folder.id });
    });
    expect(uploaded!.status, JSON.stringify(uploaded!.body)).toBe(201);
    const file = uploaded!.body.file;
    expect(file).toMatchObject({ originalName: 'report.pdf', folderId: folder.id, size: 30_000 });
    // The owner's change feed carries it, as for the owner's own upload.
    expect(changes).toMatchObject([{ op: 'created', kind: 'file', id: file.id, parentId: folder.id, name: 'report.pdf' }]);

    const tusBytes = randomBytes(200_000);
    const filePath = await tempFile(tusBytes);
    const { fileId } = await tusUpload({
      origin: server.url,
      token: editor.token,
      filePath,
      chunkSize: 64 * KiB,
      metadata: { filename: 'video.mp4', folderId: folder.id },
      retryDelays: [],
    });
    await rm(filePath);

    const listed = await listFiles(server, owner.token, folder.id);
    expect(listed.map((one) => one.originalName).sort()).toEqual(['report.pdf', 'video.mp4']);
    expect(listed.find((one) => one.originalName === 'video.mp4')?.id).toBe(fileId);
    expect(sha256((await downloadFile(server, owner.token, fileId!)).bytes)).toBe(sha256(tusBytes));
    const rows = await server.container.database.db.selectFrom('files').select('user_id').where('folder_id', '=', folder.id).execute();
    expect(rows.map((row) => row.user_id)).toEqual([owner.user.id, owner.user.id]);
    expect(await storageUsed(owner.token)).toBe(230_000);
    expect(await storageUsed(editor.token)).toBe(0);
    expect(await assertStorageConsistent(server, owner.user.id)).toEqual({ used: 230_000, sum: 230_000 });
    expect(await assertStorageConsistent(server, editor.user.id)).toEqual({ used: 0, sum: 0 });

    // The folder's activity says who uploaded.
    const activity = await server.request('GET', `/api/user/folders/${folder.id}/activity`, { token: owner.token });
    expect(activity.status).toBe(200);
    const uploads = (activity.body.activity as Array<{ action: string; name: string; actor: { name: string } }>).filter(
      (entry) => entry.action === 'uploaded',
    );
    const editorName = `${editor.user.firstName} ${editor.user.lastName ?? ''}`.trim();
    expect(uploads.map((entry) => [entry.name, entry.actor.name]).sort()).toEqual([
      ['report.pdf', editorName],
      ['video.mp4', editorName],
    ]);
  });

  it("a viewer's upload is 403 READ_ONLY_SHARE, multipart and tus; a stranger's is 404; nothing is kept", async () => {
    const { owner, viewer, folder } = await team('PREMIUM');
    const stranger = await createVerifiedUser(server);
    const refused = await uploadFile(server, viewer.token, 'hello', { name: 'a.txt', folderId: folder.id });
    expect([refused.status, refused.body.code]).toEqual([403, 'READ_ONLY_SHARE']);
    expect(await tusCreate(viewer.token, 5, { filename: 'a.txt', folderId: folder.id })).toMatchObject({
      status: 403,
      body: { code: 'READ_ONLY_SHARE' },
    });
    const unknown = await uploadFile(server, stranger.token, 'hello', { name: 'a.txt', folderId: folder.id });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'FOLDER_NOT_FOUND']);
    expect((await tusCreate(stranger.token, 5, { filename: 'a.txt', folderId: folder.id })).status).toBe(404);
    expect(await listFiles(server, owner.token, folder.id)).toEqual([]);
    expect(await storageUsed(owner.token)).toBe(0);
    expect(await storageUsed(viewer.token)).toBe(0);
  });

  it("is refused with 507 on the owner's full quota before the file is sent, though the editor has room", async () => {
    const { owner, editor, folder } = await team('PRO');
    const answer = await answerBeforeFileBytes(editor.token, folder.id, 24 * MiB);
    expect(answer?.status).toBe(507);
    expect(answer?.body.code).toBe('QUOTA_EXCEEDED');
    expect(await tusCreate(editor.token, 24 * MiB, { filename: 'big.bin', folderId: folder.id })).toMatchObject({
      status: 507,
      body: { code: 'QUOTA_EXCEEDED' },
    });
    // The same upload into the editor's own drive is accepted: it was the owner's quota.
    expect((await tusCreate(editor.token, 24 * MiB, { filename: 'big.bin' })).status).toBe(201);
    expect(await storageUsed(owner.token)).toBe(0);
    expect(await listFiles(server, owner.token, folder.id)).toEqual([]);
  });

  it("follows the owner's per-file limit: a Free owner's 1 MiB on a Business editor's upload", async () => {
    const { editor, folder } = await team('FREE');
    const answer = await answerBeforeFileBytes(editor.token, folder.id, 2 * MiB);
    expect(answer?.status).toBe(413);
    expect(answer?.body).toMatchObject({ code: 'FILE_TOO_LARGE', error: expect.stringContaining('Free plan') });
    expect((await tusCreate(editor.token, 2 * MiB, { filename: 'big.bin', folderId: folder.id })).status).toBe(413);
    const whole = await uploadFile(server, editor.token, randomBytes(2 * MiB), { name: 'big.bin', folderId: folder.id });
    expect([whole.status, whole.body.code]).toEqual([413, 'FILE_TOO_LARGE']);
    // In the editor's own drive their own plan holds.
    expect((await uploadFile(server, editor.token, randomBytes(2 * MiB), { name: 'big.bin' })).status).toBe(201);
  });

  it("stops an editor's tus upload at its next request once the share is revoked, giving the owner's quota back", async () => {
    const { owner, editor, folder, editorShareId } = await team('PREMIUM');
    const bytes = randomBytes(100_000);
    const created = await tusCreate(editor.token, bytes.length, { filename: 'half.bin', folderId: folder.id });
    expect(created.status).toBe(201);
    expect((await tusPatch(editor.token, created.location!, 0, bytes.subarray(0, 50_000))).status).toBe(204);
    // The whole length is held on the owner's quota while it uploads.
    expect(await storageUsed(owner.token)).toBe(100_000);
    expect((await server.request('DELETE', `/api/shares/${editorShareId}`, { token: owner.token })).status).toBe(204);

    // Not its last bytes: refused at once, not only when it would finish.
    const more = await tusPatch(editor.token, created.location!, 50_000, bytes.subarray(50_000, 75_000));
    expect([more.status, more.body?.code]).toEqual([404, 'FOLDER_NOT_FOUND']);
    expect(await storageUsed(owner.token)).toBe(0);
    expect(await listFiles(server, owner.token, folder.id)).toEqual([]);
    expect((await tusPatch(editor.token, created.location!, 50_000, bytes.subarray(50_000))).status).toBe(404);
    expect(await assertStorageConsistent(server, owner.user.id)).toEqual({ used: 0, sum: 0 });
  });

  it("makes the owner's storage alert, not the editor's, when it passes 80 % of the owner's plan", async () => {
    const { owner, editor, folder } = await team('PRO');
    const upload = await uploadFile(server, editor.token, randomBytes(1_700_000), { name: 'big.bin', folderId: folder.id });
    expect(upload.status).toBe(201);
    const ownerBell = await server.request('GET', '/api/notifications', { token: owner.token });
    expect(ownerBell.body.notifications).toMatchObject([{ type: 'storage_alert', details: { percent: '80' } }]);
    const editorBell = await server.request('GET', '/api/notifications', { token: editor.token });
    expect(editorBell.body.notifications.filter((one: { type: string }) => one.type === 'storage_alert')).toEqual([]);
  });
});

describe('versions in a shared folder', () => {
  it("an editor's upload of a taken name is a new version on a versioning owner plan; editors list and restore, viewers may not", async () => {
    const { owner, editor, viewer, folder } = await team('PREMIUM');
    const first = await createFile(server, owner.token, 'first draft', { name: 'plan.txt', folderId: folder.id });
    const second = await uploadFile(server, editor.token, 'second draft!', { name: 'plan.txt', folderId: folder.id });
    expect(second.status).toBe(201);
    expect(second.body.file).toMatchObject({ id: first.id, originalName: 'plan.txt', size: 13 });
    expect(await storageUsed(owner.token)).toBe(11 + 13);
    expect(await storageUsed(editor.token)).toBe(0);

    const versions = await server.request('GET', `/api/files/${first.id}/versions`, { token: editor.token });
    expect(versions.status).toBe(200);
    expect(versions.body.versions).toMatchObject([{ size: 11 }]);
    const versionId = versions.body.versions[0].id as string;
    const old = await server.request('GET', `/api/files/${first.id}/versions/${versionId}/download`, { token: editor.token });
    expect([old.status, old.text]).toEqual([200, 'first draft']);

    for (const [method, url] of [
      ['GET', `/api/files/${first.id}/versions`],
      ['POST', `/api/files/${first.id}/versions/${versionId}/restore`],
      ['DELETE', `/api/files/${first.id}/versions/${versionId}`],
    ] as const) {
      const answer = await server.request(method, url, { token: viewer.token });
      expect([answer.status, answer.body.code], `${method} ${url}`).toEqual([403, 'READ_ONLY_SHARE']);
    }
    const deleted = await server.request('DELETE', `/api/files/${first.id}/versions/${versionId}`, { token: editor.token });
    expect([deleted.status, deleted.body.code]).toEqual([403, 'OWNER_ONLY']);

    let restored: { status: number; body: { file: unknown } } | undefined;
    const changes = await changesMadeBy(server, owner.token, async () => {
      restored = await server.request('POST', `/api/files/${first.id}/versions/${versionId}/restore`, { token: editor.token });
    });
    expect(restored!.status).toBe(200);
    expect(restored!.body.file).toMatchObject({ id: first.id, size: 11 });
    expect(changes).toMatchObject([{ op: 'updated', id: first.id, size: 11 }]);
    expect((await downloadFile(server, owner.token, first.id)).bytes.toString('utf8')).toBe('first draft');
    expect(await assertStorageConsistent(server, owner.user.id)).toEqual({ used: 24, sum: 24 });
  });

  it("without versions in the owner's plan, an editor's upload of a taken name is listed beside it", async () => {
    const { owner, editor, folder } = await team('PRO');
    await createFile(server, owner.token, 'one', { name: 'plan.txt', folderId: folder.id });
    const second = await uploadFile(server, editor.token, 'two', { name: 'plan.txt', folderId: folder.id });
    expect(second.body.file?.originalName).toBe('plan (1).txt');
  });
});

describe('copies and shared folders', () => {
  it("a copy into a folder the caller edits is the owner's; a copy out into the caller's drive is the caller's", async () => {
    const { owner, editor, folder } = await team('PREMIUM');
    const mine = randomBytes(10_000);
    const own = await createFile(server, editor.token, mine, { name: 'mine.txt' });
    const theirs = await createFile(server, owner.token, randomBytes(4_000), { name: 'theirs.txt', folderId: folder.id });
    const sub = await createFolder(server, owner.token, 'Sub', folder.id);
    await createFile(server, owner.token, randomBytes(1_000), { name: 'deep.txt', folderId: sub.id });

    const copyIn = await server.request('POST', `/api/files/${own.id}/copy`, { token: editor.token, body: { folderId: folder.id } });
    expect(copyIn.status, copyIn.text).toBe(201);
    expect(copyIn.body.file).toMatchObject({ originalName: 'mine.txt', folderId: folder.id });
    expect(sha256((await downloadFile(server, owner.token, copyIn.body.file.id)).bytes)).toBe(sha256(mine));
    const within = await server.request('POST', `/api/user/folders/${sub.id}/copy`, { token: editor.token, body: { parentId: folder.id } });
    expect(within.status, within.text).toBe(201);
    expect(within.body.folder).toMatchObject({ name: 'Sub (1)', parentId: folder.id });
    expect(await storageUsed(owner.token)).toBe(4_000 + 1_000 + 10_000 + 1_000);
    expect(await storageUsed(editor.token)).toBe(10_000);

    const copyOut = await server.request('POST', `/api/files/${theirs.id}/copy`, { token: editor.token, body: { folderId: null } });
    expect(copyOut.status).toBe(201);
    expect(await storageUsed(editor.token)).toBe(14_000);
    expect(await storageUsed(owner.token)).toBe(16_000);
    expect(await assertStorageConsistent(server, owner.user.id)).toEqual({ used: 16_000, sum: 16_000 });
    expect(await assertStorageConsistent(server, editor.user.id)).toEqual({ used: 14_000, sum: 14_000 });
  });

  it("a viewer's copy into the share is 403; a copy into a full owner's folder is 507", async () => {
    const { owner, editor, viewer, folder } = await team('PRO');
    const viewersOwn = await createFile(server, viewer.token, 'mine', { name: 'mine.txt' });
    const refused = await server.request('POST', `/api/files/${viewersOwn.id}/copy`, {
      token: viewer.token,
      body: { folderId: folder.id },
    });
    expect([refused.status, refused.body.code]).toEqual([403, 'READ_ONLY_SHARE']);
    const large = await createFile(server, editor.token, randomBytes(2 * MiB + 1), { name: 'large.bin' });
    const full = await server.request('POST', `/api/files/${large.id}/copy`, { token: editor.token, body: { folderId: folder.id } });
    expect([full.status, full.body.code]).toEqual([507, 'QUOTA_EXCEEDED']);
    expect(await listFiles(server, owner.token, folder.id)).toEqual([]);
    expect(await storageUsed(owner.token)).toBe(0);
  });
});
