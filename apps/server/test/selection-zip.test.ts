import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFolder, uploadFile } from '@cloudvault/test-support/drive';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { readZip } from './helpers/read-zip.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function selectionZip(token: string, body: unknown) {
  const response = await fetch(`${server.url}/api/downloads/zip`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** A drive with a folder tree, two files at the top whose names clash with it and each other, and one elsewhere. */
async function seededDrive() {
  const { token } = await createUser(server);
  const reports = (await createFolder(server, token, 'Reports')).id;
  const inner = (await createFolder(server, token, 'Q1', reports)).id;
  await createFolder(server, token, 'Empty', reports);
  const elsewhere = (await createFolder(server, token, 'Elsewhere')).id;
  const deep = randomBytes(150_000);
  const top = Buffer.from('top level '.repeat(300));
  const clash = Buffer.from('the other notes');
  await uploadFile(server, token, deep, { name: 'sales.bin', folderId: inner });
  const topId = (await uploadFile(server, token, top, { name: 'notes.txt' })).body.file.id as string;
  const clashId = (await uploadFile(server, token, clash, { name: 'notes.txt', folderId: elsewhere })).body.file.id as string;
  // A file named as the folder: extracted side by side they would collide.
  const sameAsFolder = (await uploadFile(server, token, 'a file', { name: 'Reports', folderId: elsewhere })).body.file.id as string;
  return { token, reports, elsewhere, ids: { topId, clashId, sameAsFolder }, bytes: { deep, top, clash } };
}

describe('selection zip', () => {
  it('streams the files at the top and each folder as its subtree, clashing names numbered, bytes identical', async () => {
    const { token, reports, ids, bytes } = await seededDrive();
    const response = await selectionZip(token, { files: [ids.topId, ids.clashId, ids.sameAsFolder, ids.topId], folders: [reports] });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="CloudVault \d{4}-\d{2}-\d{2}\.zip"/);
    const entries = await readZip(response.bytes);
    expect([...entries.keys()].sort()).toEqual([
      'Reports (1)',
      'Reports/',
      'Reports/Empty/',
      'Reports/Q1/',
      'Reports/Q1/sales.bin',
      'notes (1).txt',
      'notes.txt',
    ]);
    expect((entries.get('Reports/Q1/sales.bin') as Buffer).equals(bytes.deep)).toBe(true);
    expect((entries.get('notes.txt') as Buffer).equals(bytes.top)).toBe(true);
    expect((entries.get('notes (1).txt') as Buffer).equals(bytes.clash)).toBe(true);
  });

  it("answers 404 before any byte for another user's item or one in Trash", async () => {
    const owner = await seededDrive();
    const intruder = await createUser(server);
    const mine = (await uploadFile(server, intruder.token, 'mine', { name: 'mine.txt' })).body.file.id as string;
    const foreignFile = await selectionZip(intruder.token, { files: [mine, owner.ids.topId], folders: [] });
    expect(foreignFile.status).toBe(404);
    expect(JSON.parse(foreignFile.bytes.toString()).code).toBe('FILE_NOT_FOUND');
    const foreignFolder = await selectionZip(intruder.token, { files: [mine], folders: [owner.reports] });
    expect(foreignFolder.status).toBe(404);
    expect(JSON.parse(foreignFolder.bytes.toString()).code).toBe('FOLDER_NOT_FOUND');

    await server.request('DELETE', `/api/files/${owner.ids.clashId}`, { token: owner.token });
    expect((await selectionZip(owner.token, { files: [owner.ids.topId, owner.ids.clashId], folders: [] })).status).toBe(404);
    await server.request('DELETE', `/api/user/folders/${owner.elsewhere}`, { token: owner.token });
    expect((await selectionZip(owner.token, { files: [], folders: [owner.elsewhere] })).status).toBe(404);
  });

  it('refuses an empty, oversized or malformed selection with 400', async () => {
    const { token, ids } = await seededDrive();
    const refusals = [
      { files: [], folders: [] },
      { files: Array.from({ length: 1001 }, (_, index) => `id${index}`), folders: [] },
      { files: [ids.topId] },
      { files: ['../etc'], folders: [] },
      'not an object',
    ];
    for (const body of refusals) {
      const response = await selectionZip(token, body);
      expect(response.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(JSON.parse(response.bytes.toString())).toHaveProperty('error');
    }
  });

  it('mints a link whose token, posted as a form without the bearer, answers the same zip; a forged one is 404', async () => {
    const { token, reports, ids, bytes } = await seededDrive();
    const link = await server.request('POST', '/api/downloads/zip-link', { token, body: { files: [ids.topId], folders: [reports] } });
    expect(link.status).toBe(200);
    expect(link.body.url).toBe(`/api/downloads/${link.body.token}`);
    const posted = await fetch(`${server.url}/api/downloads`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: link.body.token }).toString(),
    });
    expect(posted.status).toBe(200);
    const entries = await readZip(Buffer.from(await posted.arrayBuffer()));
    expect([...entries.keys()].sort()).toEqual(['Reports/', 'Reports/Empty/', 'Reports/Q1/', 'Reports/Q1/sales.bin', 'notes.txt']);
    expect((entries.get('notes.txt') as Buffer).equals(bytes.top)).toBe(true);
    // The short selection's address works as any download link.
    expect((await fetch(`${server.url}${link.body.url}`)).status).toBe(200);

    const forged = await fetch(`${server.url}/api/downloads`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'token=forged',
    });
    expect(forged.status).toBe(404);
    const refused = await server.request('POST', '/api/downloads/zip-link', { token, body: { files: ['missing'], folders: [] } });
    expect(refused.status).toBe(404);
  });
});
