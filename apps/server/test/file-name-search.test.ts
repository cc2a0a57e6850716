import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFolder, uploadFile } from '@cloudvault/test-support/drive';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

// Name search reads the indexes of migrations 2026-11-24-21 and -23 (docs/decisions/0032-name-search.md):
// these run on SQLite and, with TEST_DB=postgres, on PostgreSQL with pg_trgm.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const ON_POSTGRES = process.env.TEST_DB === 'postgres';

async function search(token: string, term: string): Promise<Array<{ originalName: string; folderId: string | null }>> {
  const answer = await server.request('GET', `/api/files?search=${encodeURIComponent(term)}`, { token });
  expect(answer.status).toBe(200);
  return answer.body.files;
}
const names = (files: Array<{ originalName: string }>) => files.map((file) => file.originalName);

describe('name search', () => {
  it('matches %, _ and \\ only as themselves', async () => {
    const { token } = await createUser(server);
    // Names lose their path separators (docs/api.md), so no name holds a backslash: a term
    // with one matches nothing, where an unescaped one would match "backslash.txt".
    for (const name of ['50% off.txt', '50 off.txt', 'a_b.txt', 'axb.txt', 'backslash.txt']) {
      await uploadFile(server, token, 'x', { name });
    }
    expect(names(await search(token, '0%'))).toEqual(['50% off.txt']);
    expect(names(await search(token, '%'))).toEqual(['50% off.txt']);
    expect(names(await search(token, 'a_b'))).toEqual(['a_b.txt']);
    expect(names(await search(token, '_'))).toEqual(['a_b.txt']);
    expect(await search(token, 'k\\s')).toEqual([]);
    expect(await search(token, 'backslas\\')).toEqual([]);
    expect(await search(token, '\\')).toEqual([]);
    expect(names(await search(token, 'ckslas'))).toEqual(['backslash.txt']);
  });

  it('ignores the case of ASCII letters and finds non-ASCII names, across folders, in name order', async () => {
    const { token } = await createUser(server);
    const deep = await createFolder(server, token, 'Deep');
    await uploadFile(server, token, 'a', { name: 'Quarterly REPORT.pdf' });
    await uploadFile(server, token, 'b', { name: 'report draft.txt', folderId: deep.id });
    await uploadFile(server, token, 'c', { name: 'École été.txt' });
    await uploadFile(server, token, 'd', { name: '報告書.txt' });
    await uploadFile(server, token, 'e', { name: 'unrelated.txt' });

    const reports = await search(token, 'rEpOrT');
    expect(names(reports)).toEqual(['Quarterly REPORT.pdf', 'report draft.txt']);
    expect(reports[1]!.folderId).toBe(deep.id);
    expect(names(await search(token, 'École'))).toEqual(['École été.txt']);
    expect(names(await search(token, 'été'))).toEqual(['École été.txt']);
    expect(names(await search(token, '報告'))).toEqual(['報告書.txt']);
    expect(await search(token, 'zzz')).toEqual([]);
  });

  // SQLite's lower() folds ASCII letters only: the limit decision 0032 accepts for the single-node set-up.
  it(`folds the case of non-ASCII letters on PostgreSQL, and only of ASCII letters on SQLite (${ON_POSTGRES ? 'PostgreSQL' : 'SQLite'} here)`, async () => {
    const { token } = await createUser(server);
    await uploadFile(server, token, 'a', { name: 'École été.txt' });
    expect(names(await search(token, 'école'))).toEqual(ON_POSTGRES ? ['École été.txt'] : []);
    expect(names(await search(token, 'ÉTÉ'))).toEqual(ON_POSTGRES ? ['École été.txt'] : []);
    expect(names(await search(token, 'COLE é'))).toEqual(['École été.txt']);
  });

  it("answers two-letter and one-letter terms (shorter than a trigram) and never another user's or a trashed file", async () => {
    const { token } = await createUser(server);
    const other = await createUser(server);
    await uploadFile(server, other.token, 'o', { name: 'ab other.txt' });
    const trashed = (await uploadFile(server, token, 't', { name: 'ab trashed.txt' })).body.file;
    await server.request('DELETE', `/api/files/${trashed.id}`, { token });
    await uploadFile(server, token, 'k', { name: 'ab kept.txt' });

    expect(names(await search(token, 'ab'))).toEqual(['ab kept.txt']);
    expect(names(await search(token, 'K'))).toEqual(['ab kept.txt']);
  });

  it('orders equal names in different folders the same way every time', async () => {
    const { token } = await createUser(server);
    for (const folderName of ['One', 'Two', 'Three']) {
      const folder = await createFolder(server, token, folderName);
      await uploadFile(server, token, folderName, { name: 'same.txt', folderId: folder.id });
    }
    const first = await search(token, 'same');
    expect(first).toHaveLength(3);
    expect(await search(token, 'same')).toEqual(first);
  });

  it('answers the first 500 matches in name order when more match', async () => {
    const { token } = await createUser(server);
    // More matches than an answer holds: on PostgreSQL the walk through the first names in order answers.
    for (let index = 509; index >= 0; index--) {
      expect((await uploadFile(server, token, 'x', { name: `many ${String(index).padStart(3, '0')}.txt` })).status).toBe(201);
    }
    await uploadFile(server, token, 'y', { name: 'other.txt' });
    const found = names(await search(token, 'MANY'));
    expect(found).toHaveLength(500);
    expect(found[0]).toBe('many 000.txt');
    expect(found[499]).toBe('many 499.txt');
  });

  it('answers a term a tenth of many names contain in name order, whether 500 match or fewer', async () => {
    const { token, user } = await createUser(server);
    // Rows straight into the database: thousands of names, more than PostgreSQL's first
    // look (SEARCH_PROBE, 4,000) takes in, so it reads on in order (500 matches) or turns
    // to the trigram index (fewer match than the names read).
    const now = new Date().toISOString();
    const row = (name: string, index: number) => ({
      id: `tenth-${user.id}-${index}`,
      user_id: user.id,
      folder_id: null,
      name,
      name_key: name.toLowerCase(),
      mimetype: 'text/plain',
      category: 'document',
      size: 1,
      sha256: 'ab'.repeat(32),
      crc32: 0,
      blob_key: `tenth-${user.id}-${index}`,
      created_at: now,
      updated_at: now,
      deleted_at: null,
      trashed_root: 0,
    });
    const name = (index: number) => `n-${String(index).padStart(5, '0')}${index % 10 === 0 ? '-Tenth' : ''}.txt`;
    const db = server.container.database.db;
    const insert = async (from: number, to: number) => {
      for (let start = from; start < to; start += 500) {
        const rows = Array.from({ length: Math.min(500, to - start) }, (_, offset) => row(name(start + offset), start + offset));
        await db.insertInto('files').values(rows).execute();
      }
    };
    // 4,500 names: 450 match, all among the first names read, then 50 more in the names after.
    await insert(0, 4500);
    const fewer = names(await search(token, 'TENTH'));
    expect(fewer).toHaveLength(450);
    expect(fewer.slice(0, 2)).toEqual(['n-00000-Tenth.txt', 'n-00010-Tenth.txt']);
    await insert(4500, 6000);
    const found = names(await search(token, 'TENTH'));
    expect(found).toHaveLength(500);
    expect(found[499]).toBe('n-04990-Tenth.txt');
    expect(found).toEqual([...found].sort());
  });
});
