import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileItem } from '@cloudvault/contract/files';
import { createUser } from '@cloudvault/test-support/accounts';
import { subscribe } from '@cloudvault/test-support/checkout';
import { createFile, createFolder, downloadFile, listFiles, listFolders } from '@cloudvault/test-support/drive';
import { findStorageDrift } from '../src/modules/files/storage-consistency.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { tusUpload } from './helpers/tus-upload.ts';

/**
 * Name clashes (docs/decisions/0050-name-clashes.md): what an upload (multipart and tus) or
 * a move does with the `conflict` it was sent, on a plan with versions (Business) and one
 * without (Free). Nothing is ever lost: the old content is a version, or a file in Trash.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

type Plan = 'FREE' | 'PREMIUM';

async function userOn(plan: Plan) {
  const user = await createUser(server);
  if (plan !== 'FREE') await subscribe(server, user.token, plan);
  return user;
}

/** A multipart upload with the `conflict` field before the file, as the web sends it. */
async function upload(token: string, content: string, name: string, options: { conflict?: string; folderId?: string } = {}) {
  const form = new FormData();
  if (options.folderId) form.append('folderId', options.folderId);
  if (options.conflict) form.append('conflict', options.conflict);
  form.append('file', new Blob([content]), name);
  const response = await fetch(`${server.url}/api/files/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  // The answer's JSON, read as the tests read any answer (helpers/test-server.ts).
  return { status: response.status, body: (await response.json()) as any };
}

/** A tus upload of `content` with the `conflict` metadata. */
async function tus(token: string, content: string, name: string, conflict?: string) {
  const filePath = path.join(os.tmpdir(), `cloudvault-clash-${process.pid}-${Math.random().toString(36).slice(2)}`);
  await writeFile(filePath, content);
  return tusUpload({
    origin: server.url,
    token,
    filePath,
    metadata: { filename: name, ...(conflict ? { conflict } : {}) },
    retryDelays: [],
  });
}

const text = async (token: string, id: string) => (await downloadFile(server, token, id)).bytes.toString();
const versionsOf = async (token: string, id: string) =>
  (await server.request('GET', `/api/files/${id}/versions`, { token })).body.versions as Array<{ size: number }>;
const trashedFiles = async (token: string) =>
  (await server.request('GET', '/api/trash', { token })).body.files as Array<FileItem & { deletedAt: string }>;
const names = async (token: string, folderId: string | null = null) =>
  (await listFiles(server, token, folderId)).map((f) => f.originalName).sort();
const noDrift = async () => expect(await findStorageDrift(server.container.database.db)).toEqual([]);

describe.each<{ plan: Plan; versions: boolean }>([
  { plan: 'FREE', versions: false },
  { plan: 'PREMIUM', versions: true },
])('uploads onto a taken name on $plan', ({ plan, versions }) => {
  it('keep-both lists "name (1).ext" beside the old file, whose bytes are untouched (multipart and tus)', async () => {
    const { token } = await userOn(plan);
    const first = await createFile(server, token, 'old', { name: 'report.pdf' });
    const both = await upload(token, 'new', 'report.pdf', { conflict: 'keep-both' });
    expect(both.status).toBe(201);
    expect(both.body.file.originalName).toBe('report (1).pdf');
    const viaTus = await tus(token, 'newer', 'REPORT.pdf', 'keep-both');
    expect(await names(token)).toEqual(['REPORT (2).pdf', 'report (1).pdf', 'report.pdf']);
    expect(await text(token, first.id)).toBe('old');
    expect(await text(token, viaTus.fileId!)).toBe('newer');
    expect(await versionsOf(token, first.id)).toEqual([]);
    await noDrift();
  });

  it(`replace gives the name the new bytes and keeps the old ones ${versions ? 'as a version' : 'in Trash'} (multipart)`, async () => {
    const { token } = await userOn(plan);
    const first = await createFile(server, token, 'old', { name: 'report.pdf' });
    const replaced = await upload(token, 'the new one', 'report.pdf', { conflict: 'replace' });
    expect(replaced.status).toBe(201);
    const listed = await listFiles(server, token);
    expect(listed.map((file) => [file.originalName, file.size])).toEqual([['report.pdf', 11]]);
    expect(await text(token, listed[0]!.id)).toBe('the new one');
    if (versions) {
      expect(replaced.body.file.id).toBe(first.id);
      expect((await versionsOf(token, first.id)).map((version) => version.size)).toEqual([3]);
      expect(await trashedFiles(token)).toEqual([]);
    } else {
      const trashed = await trashedFiles(token);
      expect(trashed.map((file) => [file.id, file.originalName])).toEqual([[first.id, 'report.pdf']]);
      // Restored beside the new file, it takes the next free name: nothing was lost.
      const restored = await server.request('POST', '/api/trash/restore', { token, body: { type: 'file', id: first.id } });
      expect(restored.body.file.originalName).toBe('report (1).pdf');
      expect(await text(token, first.id)).toBe('old');
    }
    await noDrift();
  });

  it('replace refused after listing (a second file in the body) leaves the old file where it was, with its bytes', async () => {
    const { token } = await userOn(plan);
    const first = await createFile(server, token, 'old', { name: 'report.pdf' });
    const form = new FormData();
    form.append('conflict', 'replace');
    form.append('file', new Blob(['new']), 'report.pdf');
    form.append('file', new Blob(['more']), 'other.pdf');
    const response = await fetch(`${server.url}/api/files/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect([response.status, ((await response.json()) as { code: string }).code]).toEqual([400, 'MORE_THAN_ONE_FILE']);
    expect((await listFiles(server, token)).map((file) => file.id)).toEqual([first.id]);
    expect(await text(token, first.id)).toBe('old');
    expect(await trashedFiles(token)).toEqual([]);
    expect(await versionsOf(token, first.id)).toEqual([]);
    await noDrift();
  });

  it(`replace over tus keeps the old bytes ${versions ? 'as a version' : 'in Trash'}`, async () => {
    const { token } = await userOn(plan);
    const first = await createFile(server, token, 'old', { name: 'movie.mp4' });
    const { fileId } = await tus(token, 'the new bytes', 'movie.mp4', 'replace');
    expect(await names(token)).toEqual(['movie.mp4']);
    expect(await text(token, fileId!)).toBe('the new bytes');
    if (versions) expect((await versionsOf(token, first.id)).map((version) => version.size)).toEqual([3]);
    else expect((await trashedFiles(token)).map((file) => file.id)).toEqual([first.id]);
    await noDrift();
  });

  it('fail answers 409 NAME_TAKEN with the existing id, before any byte, over multipart and at tus creation', async () => {
    const { token } = await userOn(plan);
    const folder = await createFolder(server, token, 'Docs');
    const first = await createFile(server, token, 'old', { name: 'a.txt', folderId: folder.id });
    const before = (await server.request('GET', '/api/user/dashboard', { token })).body.storageInfo.storageUsed;
    const refused = await upload(token, 'new', 'A.txt', { conflict: 'fail', folderId: folder.id });
    expect([refused.status, refused.body.code, refused.body.existingId]).toEqual([409, 'NAME_TAKEN', first.id]);
    const created = await fetch(`${server.url}/api/uploads`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'tus-resumable': '1.0.0',
        'upload-length': '3',
        'upload-metadata': `filename ${Buffer.from('a.txt').toString('base64')},folderId ${Buffer.from(folder.id).toString('base64')},conflict ${Buffer.from('fail').toString('base64')}`,
      },
    });
    expect(created.status).toBe(409);
    expect(await created.json()).toMatchObject({ code: 'NAME_TAKEN', existingId: first.id });
    expect(await names(token, folder.id)).toEqual(['a.txt']);
    expect(await text(token, first.id)).toBe('old');
    expect((await server.request('GET', '/api/user/dashboard', { token })).body.storageInfo.storageUsed).toBe(before);
    // A free name with `fail` is an ordinary upload.
    expect((await upload(token, 'x', 'b.txt', { conflict: 'fail', folderId: folder.id })).status).toBe(201);
    await noDrift();
  });
});

describe('the default without a choice, and a bad choice', () => {
  it('keeps what clients that send nothing had: a version on Business, "(1)" on Free', async () => {
    const free = await userOn('FREE');
    await createFile(server, free.token, 'one', { name: 'n.txt' });
    await createFile(server, free.token, 'two', { name: 'n.txt' });
    expect(await names(free.token)).toEqual(['n (1).txt', 'n.txt']);
    const business = await userOn('PREMIUM');
    const first = await createFile(server, business.token, 'one', { name: 'n.txt' });
    await createFile(server, business.token, 'two', { name: 'n.txt' });
    expect(await versionsOf(business.token, first.id)).toHaveLength(1);
  });

  it('refuses an unknown conflict with 400 and keeps nothing', async () => {
    const { token } = await userOn('FREE');
    const refused = await upload(token, 'x', 'x.txt', { conflict: 'overwrite' });
    expect([refused.status, refused.body.code]).toEqual([400, 'INVALID_CONFLICT']);
    expect(await names(token)).toEqual([]);
    await noDrift();
  });
});

describe('moves onto a taken name', () => {
  it('answers 409 NAME_TAKEN with the id of the file there, without a choice or with fail', async () => {
    const { token } = await userOn('FREE');
    const docs = await createFolder(server, token, 'Docs');
    const there = await createFile(server, token, 'there', { name: 'a.txt', folderId: docs.id });
    const moving = await createFile(server, token, 'moving', { name: 'a.txt' });
    for (const body of [{ folderId: docs.id }, { folderId: docs.id, conflict: 'fail' }]) {
      const refused = await server.request('PATCH', `/api/files/${moving.id}`, { token, body });
      expect([refused.status, refused.body.code, refused.body.existingId]).toEqual([409, 'NAME_TAKEN', there.id]);
    }
  });

  it('keep-both moves the file in as "name (1).ext"; replace puts the file there in Trash, on any plan', async () => {
    for (const plan of ['FREE', 'PREMIUM'] as const) {
      const { token } = await userOn(plan);
      const docs = await createFolder(server, token, 'Docs');
      const there = await createFile(server, token, 'there', { name: 'a.txt', folderId: docs.id });
      const kept = await createFile(server, token, 'kept', { name: 'a.txt' });
      const both = await server.request('PATCH', `/api/files/${kept.id}`, { token, body: { folderId: docs.id, conflict: 'keep-both' } });
      expect(both.body.file).toMatchObject({ id: kept.id, originalName: 'a (1).txt', folderId: docs.id });

      const replacing = await createFile(server, token, 'replacing', { name: 'a.txt' });
      const replaced = await server.request('PATCH', `/api/files/${replacing.id}`, {
        token,
        body: { folderId: docs.id, conflict: 'replace' },
      });
      expect(replaced.body.file).toMatchObject({ id: replacing.id, originalName: 'a.txt', folderId: docs.id });
      expect(await names(token, docs.id)).toEqual(['a (1).txt', 'a.txt']);
      expect(await text(token, replacing.id)).toBe('replacing');
      expect((await trashedFiles(token)).map((file) => file.id)).toEqual([there.id]);
      const restored = await server.request('POST', '/api/trash/restore', { token, body: { type: 'file', id: there.id } });
      expect(restored.body.file.originalName).toBe('a (2).txt');
      expect(await text(token, there.id)).toBe('there');
      await noDrift();
    }
  });

  it('moves a folder onto a taken name as "name (1)" with keep-both; a folder is never replaced', async () => {
    const { token } = await userOn('FREE');
    const target = await createFolder(server, token, 'Target');
    await createFolder(server, token, 'Photos', target.id);
    const photos = await createFolder(server, token, 'Photos');
    await createFile(server, token, 'inside', { name: 'in.txt', folderId: photos.id });
    const refused = await server.request('PATCH', `/api/user/folders/${photos.id}`, { token, body: { parentId: target.id } });
    expect([refused.status, refused.body.code]).toEqual([409, 'NAME_TAKEN']);
    const replace = await server.request('PATCH', `/api/user/folders/${photos.id}`, {
      token,
      body: { parentId: target.id, conflict: 'replace' },
    });
    expect(replace.status).toBe(400);
    const both = await server.request('PATCH', `/api/user/folders/${photos.id}`, {
      token,
      body: { parentId: target.id, conflict: 'keep-both' },
    });
    expect(both.body.folder).toMatchObject({ id: photos.id, name: 'Photos (1)', parentId: target.id });
    expect((await listFolders(server, token, target.id)).map((folder) => folder.name).sort()).toEqual(['Photos', 'Photos (1)']);
    expect(await names(token, photos.id)).toEqual(['in.txt']);
  });
});
