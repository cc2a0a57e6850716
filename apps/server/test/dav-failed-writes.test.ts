import { createUser } from '@cloudvault/test-support/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { davClientFor } from './helpers/dav-requests.ts';
import { assertStorageConsistent } from './helpers/storage-totals.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

/** A WebDAV request that fails changes nothing: no file made for a lock that was not granted, no destination sent to Trash. */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const FREE_STORAGE = 524288000;
const lockBody = (scope: 'exclusive' | 'shared') =>
  `<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:${scope}/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>tester</D:owner></D:lockinfo>`;

async function davUser() {
  const user = await createUser(server);
  return { ...user, dav: await davClientFor(server, user) };
}

const trashOf = async (token: string) => {
  const trash = (await server.request('GET', '/api/trash', { token })).body as {
    files: Array<{ originalName: string }>;
    folders: Array<{ name: string }>;
  };
  return [...trash.folders.map((folder) => folder.name), ...trash.files.map((file) => file.originalName)];
};

async function setStorageUsed(userId: string, bytes: number): Promise<void> {
  await server.container.database.db.updateTable('users').set({ storage_used: bytes }).where('id', '=', userId).execute();
}

describe('a LOCK on an unmapped URL', () => {
  it('that conflicts with a lock above it leaves no empty file behind', async () => {
    const { dav } = await davUser();
    expect((await dav('MKCOL', '/dav/team')).status).toBe(201);
    const shared = await dav('LOCK', '/dav/team/', { body: lockBody('shared'), headers: { depth: 'infinity' } });
    expect(shared.status).toBe(200);
    const token = shared.headers['lock-token'] as string;
    // The parent's token is submitted, so the new member may be added; an exclusive lock still conflicts with the shared one.
    const refused = await dav('LOCK', '/dav/team/new.txt', { body: lockBody('exclusive'), headers: { depth: '0', if: `(${token})` } });
    expect(refused.status).toBe(423);
    expect((await dav('PROPFIND', '/dav/team/new.txt', { headers: { depth: '0' } })).status).toBe(404);
    // A granted one makes the empty file, locked.
    const granted = await dav('LOCK', '/dav/team/other.txt', { body: lockBody('shared'), headers: { depth: '0', if: `(${token})` } });
    expect(granted.status).toBe(201);
    expect((await dav('GET', '/dav/team/other.txt')).text).toBe('');
    expect((await dav('PUT', '/dav/team/other.txt', { body: 'x', headers: { if: `(${token})` } })).status).toBe(423);
  });
});

describe('COPY and MOVE with Overwrite: T', () => {
  it('a COPY of a file refused for the quota leaves the destination in place', async () => {
    const { dav, token, user } = await davUser();
    await dav('PUT', '/dav/big.bin', { body: Buffer.alloc(1000, 1) });
    await dav('PUT', '/dav/target.bin', { body: 'keep me' });
    await setStorageUsed(user.id, FREE_STORAGE - 500);
    expect((await dav('COPY', '/dav/big.bin', { headers: { destination: '/dav/target.bin', overwrite: 'T' } })).status).toBe(507);
    expect((await dav('GET', '/dav/target.bin')).text).toBe('keep me');
    expect(await trashOf(token)).toEqual([]);
  });

  it('a COPY of a folder refused for the quota leaves the destination folder in place', async () => {
    const { dav, token, user } = await davUser();
    await dav('MKCOL', '/dav/photos');
    await dav('PUT', '/dav/photos/a.jpg', { body: Buffer.alloc(800, 2) });
    await dav('PUT', '/dav/photos/b.jpg', { body: Buffer.alloc(800, 3) });
    await dav('MKCOL', '/dav/backup');
    await dav('PUT', '/dav/backup/old.txt', { body: 'old backup' });
    const used = 1600 + 10;
    await setStorageUsed(user.id, FREE_STORAGE - 1000);
    expect(
      (await dav('COPY', '/dav/photos/', { headers: { destination: '/dav/backup/', overwrite: 'T', depth: 'infinity' } })).status,
    ).toBe(507);
    expect((await dav('GET', '/dav/backup/old.txt')).text).toBe('old backup');
    expect(await trashOf(token)).toEqual([]);
    await setStorageUsed(user.id, used);
    await assertStorageConsistent(server, user.id);
  });

  it('a COPY refused for the account’s bound of properties leaves the destination in place', async () => {
    const { dav, token, user } = await davUser();
    await dav('MKCOL', '/dav/tagged');
    await dav('PROPPATCH', '/dav/tagged/', {
      body: '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><a xmlns="urn:t">1</a><b xmlns="urn:t">2</b></D:prop></D:set></D:propertyupdate>',
    });
    await dav('PUT', '/dav/target.txt', { body: 'keep me' });
    const filler = Array.from({ length: 9_997 }, (_, index) => ({
      user_id: user.id,
      resource_id: '/',
      file_id: null,
      folder_id: null,
      namespace: 'urn:filler',
      name: `p${index}`,
      value: 'v',
    }));
    for (let index = 0; index < filler.length; index += 200)
      await server.container.database.db
        .insertInto('dav_properties')
        .values(filler.slice(index, index + 200))
        .execute();
    const copy = await dav('COPY', '/dav/tagged/', { headers: { destination: '/dav/target.txt', overwrite: 'T', depth: 'infinity' } });
    expect(copy.status).toBe(507);
    expect((await dav('GET', '/dav/target.txt')).text).toBe('keep me');
    expect(await trashOf(token)).toEqual([]);
  });

  it('a COPY or MOVE onto a folder holding the source is refused, the destination left in place', async () => {
    const { dav, token, user } = await davUser();
    await dav('MKCOL', '/dav/outer');
    await dav('MKCOL', '/dav/outer/inner');
    await dav('PUT', '/dav/outer/inner/file.txt', { body: 'inside' });
    await dav('PUT', '/dav/outer/sibling.txt', { body: 'sibling' });
    for (const method of ['MOVE', 'COPY']) {
      const answer = await dav(method, '/dav/outer/inner/', { headers: { destination: '/dav/outer/', overwrite: 'T', depth: 'infinity' } });
      expect(answer.status).toBe(409);
      expect((await dav('GET', '/dav/outer/sibling.txt')).text).toBe('sibling');
      expect((await dav('GET', '/dav/outer/inner/file.txt')).text).toBe('inside');
    }
    const file = await dav('MOVE', '/dav/outer/inner/file.txt', { headers: { destination: '/dav/outer/', overwrite: 'T' } });
    expect(file.status).toBe(409);
    expect((await dav('GET', '/dav/outer/sibling.txt')).text).toBe('sibling');
    expect(await trashOf(token)).toEqual([]);
    await assertStorageConsistent(server, user.id);
  });
});
