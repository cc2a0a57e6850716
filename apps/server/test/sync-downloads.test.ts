import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFile, createFolder } from '@cloudvault/test-support/drive';
import { createVerifiedUser } from './helpers/factories.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

// POST /api/sync/downloads (issue 39): many files in one streamed answer, a JSON line then
// exactly `size` bytes each, an error line for an id the caller cannot read, `{"end":true}` last.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

type Entry = { header: Record<string, unknown>; bytes?: Buffer };

/** Reads the answer's body the way a client does; `ended` only when the last line came. */
function parseFiles(body: Buffer): { entries: Entry[]; ended: boolean } {
  const entries: Entry[] = [];
  let offset = 0;
  while (offset < body.length) {
    const newline = body.indexOf(0x0a, offset);
    if (newline === -1) return { entries, ended: false };
    const header = JSON.parse(body.subarray(offset, newline).toString('utf8')) as Record<string, unknown>;
    offset = newline + 1;
    if (header.end === true) return { entries, ended: offset === body.length };
    if (typeof header.size === 'number') {
      if (offset + header.size > body.length) return { entries, ended: false };
      entries.push({ header, bytes: body.subarray(offset, offset + header.size) });
      offset += header.size;
    } else entries.push({ header });
  }
  return { entries, ended: false };
}

async function download(token: string, body: unknown) {
  const response = await fetch(`${server.url}/api/sync/downloads`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const bytes = await response.arrayBuffer().then(
    (buffer) => Buffer.from(buffer),
    () => undefined,
  );
  return { status: response.status, type: response.headers.get('content-type'), bytes };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('batch downloads', () => {
  it('sends each readable file in the order asked, and a 404 line for the others, which never says why', async () => {
    const user = await createUser(server);
    const owner = await createUser(server);
    const reader = user;
    const contents = [randomBytes(10), randomBytes(200_000), Buffer.alloc(0), Buffer.from('last\n{"end":true}\n')];
    const mine = [];
    for (const [index, bytes] of contents.entries()) mine.push(await createFile(server, user.token, bytes, { name: `m${index}.bin` }));
    const theirs = await createFile(server, owner.token, 'secret', { name: 'secret.txt' });
    const trashed = await createFile(server, user.token, 'gone', { name: 'gone.txt' });
    expect((await server.request('DELETE', `/api/files/${trashed.id}`, { token: user.token })).status).toBeLessThan(300);

    const ids = [mine[0]!.id, theirs.id, mine[1]!.id, 'no-such-id', mine[2]!.id, trashed.id, mine[3]!.id, mine[0]!.id];
    const answer = await download(reader.token, { ids });
    expect(answer.status).toBe(200);
    expect(answer.type).toContain('application/x-cloudvault-files');
    const { entries, ended } = parseFiles(answer.bytes!);
    expect(ended).toBe(true);
    expect(entries.map((entry) => entry.header.id)).toEqual(ids);
    const expected = [0, 'x', 1, 'x', 2, 'x', 3, 0];
    entries.forEach((entry, index) => {
      const which = expected[index]!;
      if (which === 'x') {
        expect(entry.header).toEqual({ id: ids[index], error: 'File not found', code: 'NOT_FOUND' });
        return;
      }
      const bytes = contents[which as number]!;
      expect(entry.header).toEqual({ id: ids[index], size: bytes.length, contentHash: sha256(bytes) });
      expect(entry.bytes!.equals(bytes)).toBe(true);
    });
  });

  it('sends the files of a folder shared with the caller', async () => {
    const owner = await createUser(server);
    const reader = await createVerifiedUser(server);
    const shared = await createFolder(server, owner.token, 'Shared');
    const file = await createFile(server, owner.token, 'shared bytes', { name: 'in.txt', folderId: shared.id });
    const share = await server.request('POST', `/api/user/folders/${shared.id}/share`, {
      token: owner.token,
      body: { shareType: 'private', email: reader.email, role: 'viewer' },
    });
    expect(share.status).toBeLessThan(300);
    const { entries, ended } = parseFiles((await download(reader.token, { ids: [file.id] })).bytes!);
    expect(ended).toBe(true);
    expect(entries[0]!.bytes!.toString()).toBe('shared bytes');
  });

  it("cuts the answer when a listed file's bytes are missing from the store: the client never sees the end line", async () => {
    const user = await createUser(server);
    const first = await createFile(server, user.token, 'first', { name: 'first.txt' });
    const broken = await createFile(server, user.token, 'broken', { name: 'broken.txt' });
    const row = await server.container.database.db
      .selectFrom('files')
      .select('blob_key')
      .where('id', '=', broken.id)
      .executeTakeFirstOrThrow();
    await server.container.blobs.delete(row.blob_key);
    const answer = await download(user.token, { ids: [first.id, broken.id] });
    expect(answer.status).toBe(200);
    // Either the body could not be read to its end, or what came is cut before the last line.
    if (answer.bytes) expect(parseFiles(answer.bytes).ended).toBe(false);
  });

  it('answers 400 to a body that is not the contract, 401 signed out', async () => {
    const user = await createUser(server);
    for (const body of [
      {},
      { ids: [] },
      { ids: ['bad id!'] },
      { ids: Array.from({ length: 1001 }, (_, index) => `id${index}`) },
      { ids: 'x' },
    ]) {
      expect((await download(user.token, body)).status, JSON.stringify(body).slice(0, 50)).toBe(400);
    }
    const raw = await server.request('POST', '/api/sync/downloads', {
      token: user.token,
      rawBody: '{"ids":[',
      headers: { 'content-type': 'application/json' },
    });
    expect(raw.status).toBe(400);
    expect((await download('', { ids: ['a'] })).status).toBe(401);
  });
});
