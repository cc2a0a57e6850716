import { randomUUID } from 'node:crypto';
import { createUser } from '@cloudvault/test-support/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, davClientFor, davPassword, davRequest } from './helpers/dav-requests.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

/**
 * Dead properties and lock owners live outside the quota: each is bounded, so is how many
 * an account keeps, and so is what they add to one PROPFIND answer.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const KiB = 1024;

async function davUser() {
  const user = await createUser(server);
  return { userId: user.user.id, user, dav: await davClientFor(server, user) };
}
type Dav = Awaited<ReturnType<typeof davUser>>['dav'];

const setProps = (props: Array<{ name: string; value: string; namespace?: string }>) =>
  `<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop>${props
    .map(({ name, value, namespace }) => `<${name} xmlns="${namespace ?? 'urn:test'}">${value}</${name}>`)
    .join('')}</D:prop></D:set></D:propertyupdate>`;
const lockBody = (scope: 'exclusive' | 'shared', owner: string) =>
  `<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:${scope}/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>${owner}</D:owner></D:lockinfo>`;
const statuses = (xml: string) => [...xml.matchAll(/<D:status>HTTP\/1.1 (\d+)/g)].map((match) => Number(match[1]));

async function propertyCount(userId: string): Promise<number> {
  return (await server.container.database.db.selectFrom('dav_properties').select('name').where('user_id', '=', userId).execute()).length;
}

async function lockCount(userId: string): Promise<number> {
  return (await server.container.database.db.selectFrom('dav_locks').select('token').where('user_id', '=', userId).execute()).length;
}

/** Dead properties put straight into the table, on My Files itself, to fill an account without thousands of requests. */
async function insertProperties(userId: string, count: number, value = 'v'): Promise<void> {
  const rows = Array.from({ length: count }, (_, index) => ({
    user_id: userId,
    resource_id: '/',
    file_id: null,
    folder_id: null,
    namespace: 'urn:filler',
    name: `p${index}`,
    value,
  }));
  for (let index = 0; index < rows.length; index += 200)
    await server.container.database.db
      .insertInto('dav_properties')
      .values(rows.slice(index, index + 200))
      .execute();
}

/** Unexpired locks put straight into the table, each at a path of its own. */
async function insertLocks(
  userId: string,
  count: number,
  at: (index: number) => { path_key: string; href: string; depth_infinity: number },
  owner = '',
): Promise<void> {
  const now = server.clock.now();
  const rows = Array.from({ length: count }, (_, index) => ({
    token: `urn:uuid:${randomUUID()}`,
    user_id: userId,
    ...at(index),
    exclusive: 0,
    owner,
    timeout_seconds: 3600,
    expires_at: new Date(now.getTime() + 3600_000).toISOString(),
    created_at: now.toISOString(),
  }));
  for (let index = 0; index < rows.length; index += 200)
    await server.container.database.db
      .insertInto('dav_locks')
      .values(rows.slice(index, index + 200))
      .execute();
}

const allprop = (dav: Dav, path: string, depth: string) => dav('PROPFIND', path, { headers: { depth } });

describe('dead properties', () => {
  it('keep a value up to 4 KiB; a larger one is 507 in the multistatus and nothing of the request is kept', async () => {
    const { dav, userId } = await davUser();
    await dav('PUT', '/dav/p.txt', { body: 'p' });
    const fits = await dav('PROPPATCH', '/dav/p.txt', { body: setProps([{ name: 'fits', value: 'a'.repeat(4 * KiB) }]) });
    expect(statuses(fits.text)).toEqual([200]);
    const tooLarge = await dav('PROPPATCH', '/dav/p.txt', {
      body: setProps([
        { name: 'small', value: 'x' },
        { name: 'large', value: 'a'.repeat(4 * KiB + 1) },
      ]),
    });
    expect(tooLarge.status).toBe(207);
    expect(tooLarge.text).toMatch(/<large xmlns="urn:test"\/><\/D:prop><D:status>HTTP\/1.1 507 Insufficient Storage/);
    expect(tooLarge.text).toMatch(/<small xmlns="urn:test"\/><\/D:prop><D:status>HTTP\/1.1 424/);
    expect(await propertyCount(userId)).toBe(1);
  });

  it('refuse a namespace or name longer than can be stored with 400 (not a database error)', async () => {
    const { dav, userId } = await davUser();
    await dav('PUT', '/dav/n.txt', { body: 'n' });
    const longNamespace = await dav('PROPPATCH', '/dav/n.txt', {
      body: setProps([{ name: 'x', value: 'v', namespace: `urn:${'n'.repeat(1100)}` }]),
    });
    expect(longNamespace.status).toBe(400);
    expect(JSON.parse(longNamespace.text).code).toBe('DAV_PROPERTY_NAME_TOO_LONG');
    const longName = await dav('PROPPATCH', '/dav/n.txt', { body: setProps([{ name: `x${'n'.repeat(300)}`, value: 'v' }]) });
    expect(longName.status).toBe(400);
    expect(await propertyCount(userId)).toBe(0);
  });

  it('are at most 64 on one resource: a set past that is 507, a replacement still goes through', async () => {
    const { dav, userId } = await davUser();
    await dav('MKCOL', '/dav/many');
    const sixtyFour = Array.from({ length: 64 }, (_, index) => ({ name: `p${index}`, value: String(index) }));
    expect(statuses((await dav('PROPPATCH', '/dav/many/', { body: setProps(sixtyFour) })).text)).toEqual([200]);
    const oneMore = await dav('PROPPATCH', '/dav/many/', { body: setProps([{ name: 'p64', value: 'more' }]) });
    expect(statuses(oneMore.text)).toEqual([507]);
    expect(statuses((await dav('PROPPATCH', '/dav/many/', { body: setProps([{ name: 'p3', value: 'changed' }]) })).text)).toEqual([200]);
    expect(await propertyCount(userId)).toBe(64);
  });

  it('are at most 10,000 in one account, by PROPPATCH and by COPY', async () => {
    const { dav, userId } = await davUser();
    await dav('PUT', '/dav/a.txt', { body: 'a' });
    await insertProperties(userId, 9_998);
    expect(
      statuses(
        (
          await dav('PROPPATCH', '/dav/a.txt', {
            body: setProps([
              { name: 'one', value: '1' },
              { name: 'two', value: '2' },
            ]),
          })
        ).text,
      ),
    ).toEqual([200]);
    expect(statuses((await dav('PROPPATCH', '/dav/a.txt', { body: setProps([{ name: 'three', value: '3' }]) })).text)).toEqual([507]);
    const copy = await dav('COPY', '/dav/a.txt', { headers: { destination: '/dav/b.txt' } });
    expect(copy.status).toBe(507);
    expect((await dav('GET', '/dav/b.txt')).status).toBe(404);
    expect(await propertyCount(userId)).toBe(10_000);
  });

  it('bound what they add to a listing: past 8 MiB the PROPFIND is 507 before it starts, Depth: 0 still answers', async () => {
    const { dav, userId } = await davUser();
    await dav('MKCOL', '/dav/heavy');
    const value = 'v'.repeat(4 * KiB);
    // 40 sub-folders with 60 properties of 4 KiB each: 9.6 MiB, within every other bound.
    for (let index = 0; index < 40; index++) {
      expect((await dav('MKCOL', `/dav/heavy/f${index}`)).status).toBe(201);
      expect(
        (
          await dav('PROPPATCH', `/dav/heavy/f${index}/`, {
            body: setProps(Array.from({ length: 60 }, (_, n) => ({ name: `p${n}`, value }))),
          })
        ).status,
      ).toBe(207);
    }
    expect(await propertyCount(userId)).toBe(2_400);
    const listing = await allprop(dav, '/dav/heavy/', '1');
    expect(listing.status).toBe(507);
    expect(JSON.parse(listing.text).code).toBe('DAV_ANSWER_TOO_LARGE');
    expect((await allprop(dav, '/dav/heavy/f0/', '0')).status).toBe(207);
    const named = await dav('PROPFIND', '/dav/heavy/', {
      headers: { depth: '1' },
      body: '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:displayname/></D:prop></D:propfind>',
    });
    expect(named.status).toBe(207);
  });
});

describe('locks', () => {
  it('take an owner of up to 1 KiB; a longer one is 400 and no lock is made', async () => {
    const { dav, userId } = await davUser();
    await dav('PUT', '/dav/l.txt', { body: 'l' });
    const refused = await dav('LOCK', '/dav/l.txt', { body: lockBody('shared', 'o'.repeat(KiB + 1)) });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text).code).toBe('DAV_LOCK_OWNER_TOO_LONG');
    expect(await lockCount(userId)).toBe(0);
    expect((await dav('LOCK', '/dav/l.txt', { body: lockBody('shared', 'o'.repeat(KiB)) })).status).toBe(200);
    // Nor does a lock on an unmapped URL refused for its owner leave a file behind.
    expect((await dav('LOCK', '/dav/new.txt', { body: lockBody('shared', 'o'.repeat(2 * KiB)) })).status).toBe(400);
    expect((await dav('GET', '/dav/new.txt')).status).toBe(404);
  });

  it('read a LOCK body of 16 KiB at most (413)', async () => {
    const { dav, userId } = await davUser();
    await dav('PUT', '/dav/b.txt', { body: 'b' });
    expect((await dav('LOCK', '/dav/b.txt', { body: lockBody('shared', `<x xmlns="urn:x">${'o'.repeat(20 * KiB)}</x>`) })).status).toBe(
      413,
    );
    expect(await lockCount(userId)).toBe(0);
  });

  it('are at most 1,000 in one account (507)', async () => {
    const { dav, userId } = await davUser();
    await dav('PUT', '/dav/c.txt', { body: 'c' });
    await insertLocks(userId, 1_000, (index) => ({ path_key: `/gone-${index}`, href: `/dav/gone-${index}`, depth_infinity: 0 }));
    const refused = await dav('LOCK', '/dav/c.txt', { body: lockBody('exclusive', 'me') });
    expect(refused.status).toBe(507);
    expect(JSON.parse(refused.text).code).toBe('DAV_TOO_MANY_LOCKS');
    // Expired locks do not count.
    server.clock.advance(3601_000);
    expect((await dav('LOCK', '/dav/c.txt', { body: lockBody('exclusive', 'me') })).status).toBe(200);
  });

  it('bound what lock discovery adds to a listing: shared locks above a folder of sub-folders are not repeated past 8 MiB', async () => {
    const { dav, userId } = await davUser();
    await dav('MKCOL', '/dav/team');
    for (let index = 0; index < 30; index++) expect((await dav('MKCOL', `/dav/team/s${index}`)).status).toBe(201);
    // 300 shared depth-infinity locks with 1 KiB owners: each shows in all 31 resources' lockdiscovery (about 11 MiB).
    const owner = 'o'.repeat(KiB);
    expect((await dav('LOCK', '/dav/team/', { body: lockBody('shared', owner), headers: { depth: 'infinity' } })).status).toBe(200);
    await insertLocks(userId, 299, () => ({ path_key: '/team', href: '/dav/team/', depth_infinity: 1 }), owner);
    const listing = await allprop(dav, '/dav/team/', '1');
    expect(listing.status).toBe(507);
    expect(listing.text.length).toBeLessThan(KiB);
    const alone = await allprop(dav, '/dav/team/', '0');
    expect(alone.status).toBe(207);
    expect(alone.text.length).toBeLessThan(1024 * KiB);
    const withoutLocks = await dav('PROPFIND', '/dav/team/', {
      headers: { depth: '1' },
      body: '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:resourcetype/></D:prop></D:propfind>',
    });
    expect(withoutLocks.status).toBe(207);
  });
});

describe('with two nodes', () => {
  it('neither bound is passed by requests arriving on both at once', async () => {
    const { dav, userId, user } = await davUser();
    await dav('PUT', '/dav/both.txt', { body: 'b' });
    await dav('PROPPATCH', '/dav/both.txt', {
      body: setProps(Array.from({ length: 63 }, (_, index) => ({ name: `p${index}`, value: 'v' }))),
    });
    await insertLocks(userId, 999, (index) => ({ path_key: `/gone-${index}`, href: `/dav/gone-${index}`, depth_infinity: 0 }));
    const second = await server.startNode();
    try {
      const auth = basicAuth(user.email, await davPassword(server, user));
      const onEach = (method: string, path: string, body: (n: number) => string) =>
        Promise.all([server, second].map((node, n) => davRequest(node, method, path, { auth, body: body(n) })));
      const patches = await onEach('PROPPATCH', '/dav/both.txt', (n) => setProps([{ name: `node${n}`, value: 'v' }]));
      expect(patches.map((answer) => statuses(answer.text)[0]).sort()).toEqual([200, 507]);
      const locks = await onEach('LOCK', '/dav/both.txt', () => lockBody('shared', 'me'));
      expect(locks.map((answer) => answer.status).sort()).toEqual([200, 507]);
    } finally {
      await second.close();
    }
    expect(await propertyCount(userId)).toBe(64);
    expect(await lockCount(userId)).toBe(1_000);
  });
});
