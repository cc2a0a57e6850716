import http from 'node:http';
import { createUser } from '@cloudvault/test-support/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertStorageConsistent } from './helpers/storage-totals.ts';
import { basicAuth, davClientFor, davPassword, davRequest } from './helpers/dav-requests.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

type Dav = Awaited<ReturnType<typeof davClientFor>>;

/** A user with a signed-in WebDAV client. */
async function davUser(plan?: 'PRO' | 'PREMIUM') {
  const user = await createUser(server);
  if (plan) await server.container.database.db.updateTable('users').set({ plan_id: plan }).where('id', '=', user.user.id).execute();
  return { ...user, dav: await davClientFor(server, user) };
}

const propfind = (dav: Dav, path: string, depth: string, body?: string) =>
  dav('PROPFIND', path, { headers: { depth, 'content-type': 'application/xml' }, ...(body ? { body } : {}) });
/** The hrefs of a multistatus, decoded. */
const hrefs = (xml: string) => [...xml.matchAll(/<D:href>([^<]*)<\/D:href>/g)].map((match) => decodeURIComponent(match[1] as string));
const propOf = (xml: string, name: string) => new RegExp(`<D:${name}>([^<]*)</D:${name}>`).exec(xml)?.[1];
const filesIn = async (token: string, folderId?: string) =>
  (await server.request('GET', `/api/files${folderId ? `?folderId=${folderId}` : ''}`, { token })).body.files as Array<{
    id: string;
    originalName: string;
    size: number;
  }>;

describe('signing in', () => {
  it('asks for Basic credentials, and takes an app password', async () => {
    const user = await createUser(server);
    const none = await davRequest(server, 'PROPFIND', '/dav/', { headers: { depth: '0' } });
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Basic realm=/);
    const wrong = await davRequest(server, 'PROPFIND', '/dav/', {
      auth: basicAuth(user.email, 'not the password'),
      headers: { depth: '0' },
    });
    expect(wrong.status).toBe(401);
    const right = await davRequest(server, 'OPTIONS', '/dav/', { auth: basicAuth(user.email, await davPassword(server, user)) });
    expect(right.status).toBe(200);
    expect(right.headers.dav).toBe('1, 2');
  });
});

describe('files and folders', () => {
  it('lists the caller’s My Files at depth 0 and 1 with the live properties, and refuses depth infinity', async () => {
    const { dav } = await davUser();
    expect((await dav('MKCOL', '/dav/Reports')).status).toBe(201);
    expect(
      (await dav('PUT', '/dav/Reports/q1%20notes.txt', { body: 'quarter one', headers: { 'content-type': 'text/plain' } })).status,
    ).toBe(201);

    const listing = await propfind(dav, '/dav/Reports/', '1');
    expect(listing.status).toBe(207);
    expect(hrefs(listing.text)).toEqual(['/dav/Reports/', '/dav/Reports/q1 notes.txt']);
    const file = await propfind(dav, '/dav/Reports/q1%20notes.txt', '0');
    expect(propOf(file.text, 'getcontentlength')).toBe('11');
    expect(propOf(file.text, 'getcontenttype')).toBe('text/plain');
    expect(propOf(file.text, 'getetag')).toMatch(/^&#34;[0-9a-f]{32}&#34;$/);
    expect(new Date(propOf(file.text, 'getlastmodified') as string).getTime()).toBeGreaterThan(0);
    expect(propOf(file.text, 'creationdate')).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(file.text).toContain('<D:resourcetype/>');

    const infinite = await propfind(dav, '/dav/', 'infinity');
    expect(infinite.status).toBe(403);
    expect(infinite.text).toContain('<D:propfind-finite-depth/>');
    expect((await dav('PROPFIND', '/dav/')).status).toBe(403);
  });

  it('reports the quota of RFC 4331 from the plan and what the files use', async () => {
    const { dav, user } = await davUser();
    await dav('PUT', '/dav/a.bin', { body: Buffer.alloc(1000, 1) });
    const answer = await propfind(
      dav,
      '/dav/',
      '0',
      '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:quota-used-bytes/><D:quota-available-bytes/></D:prop></D:propfind>',
    );
    expect(propOf(answer.text, 'quota-used-bytes')).toBe('1000');
    expect(propOf(answer.text, 'quota-available-bytes')).toBe(String(524288000 - 1000));
    await assertStorageConsistent(server, user.id);
  });

  it('serves a file with Range, its ETag matching getetag', async () => {
    const { dav } = await davUser();
    await dav('PUT', '/dav/range.txt', { body: '0123456789' });
    const part = await dav('GET', '/dav/range.txt', { headers: { range: 'bytes=2-5' } });
    expect(part.status).toBe(206);
    expect(part.text).toBe('2345');
    const etag = propOf((await propfind(dav, '/dav/range.txt', '0')).text, 'getetag')?.replaceAll('&#34;', '"');
    expect(part.headers.etag).toBe(etag);
    const head = await dav('HEAD', '/dav/range.txt');
    expect(head.headers['content-length']).toBe('10');
  });

  it('replaces a file’s content on PUT, keeping its id; the old bytes are freed without versioning', async () => {
    const { dav, token, user } = await davUser();
    await dav('PUT', '/dav/report.txt', { body: 'first' });
    const [before] = await filesIn(token);
    const replaced = await dav('PUT', '/dav/REPORT.txt', { body: 'second, longer' });
    expect(replaced.status).toBe(204);
    const after = await filesIn(token);
    expect(after).toMatchObject([{ id: before?.id, originalName: 'report.txt', size: 14 }]);
    expect((await dav('GET', '/dav/report.txt')).text).toBe('second, longer');
    await assertStorageConsistent(server, user.id);
    expect(await server.blobCount()).toBeGreaterThan(0);
  });

  it('keeps the old bytes as a version on Business', async () => {
    const { dav, token } = await davUser('PREMIUM');
    await dav('PUT', '/dav/plan.txt', { body: 'v1' });
    await dav('PUT', '/dav/plan.txt', { body: 'v2' });
    const [file] = await filesIn(token);
    const versions = await server.request('GET', `/api/files/${file?.id}/versions`, { token });
    expect(versions.body.versions).toHaveLength(1);
  });

  it('sets modification times from X-OC-Mtime and PROPPATCH, and reports them back', async () => {
    const { dav } = await davUser();
    const put = await dav('PUT', '/dav/old.txt', { body: 'x', headers: { 'x-oc-mtime': '1600000000' } });
    expect(put.headers['x-oc-mtime']).toBe('accepted');
    expect(propOf((await propfind(dav, '/dav/old.txt', '0')).text, 'getlastmodified')).toBe(new Date(1_600_000_000_000).toUTCString());
    const patch = await dav('PROPPATCH', '/dav/old.txt', {
      body: '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><D:getlastmodified>Sat, 01 Jan 2022 10:00:00 GMT</D:getlastmodified></D:prop></D:set></D:propertyupdate>',
    });
    expect(patch.status).toBe(207);
    expect(patch.text).toContain('HTTP/1.1 200 OK');
    expect(propOf((await propfind(dav, '/dav/old.txt', '0')).text, 'getlastmodified')).toBe('Sat, 01 Jan 2022 10:00:00 GMT');
  });

  it('keeps dead properties and refuses to set protected ones, all or nothing', async () => {
    const { dav } = await davUser();
    await dav('PUT', '/dav/p.txt', { body: 'p' });
    const mixed = await dav('PROPPATCH', '/dav/p.txt', {
      body: '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop><Z:colour>red</Z:colour><D:getcontentlength>5</D:getcontentlength></D:prop></D:set></D:propertyupdate>',
    });
    expect(mixed.text).toContain('HTTP/1.1 403');
    expect(mixed.text).toContain('HTTP/1.1 424');
    const asked = '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><Z:colour xmlns:Z="urn:z"/></D:prop></D:propfind>';
    expect((await propfind(dav, '/dav/p.txt', '0', asked)).text).toContain('404 Not Found');
    await dav('PROPPATCH', '/dav/p.txt', {
      body: '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop><Z:colour>red</Z:colour></D:prop></D:set></D:propertyupdate>',
    });
    expect((await propfind(dav, '/dav/p.txt', '0', asked)).text).toContain('<colour xmlns="urn:z">red</colour>');
  });

  it('sends DELETE to Trash, as the web app does', async () => {
    const { dav, token } = await davUser();
    await dav('MKCOL', '/dav/gone');
    await dav('PUT', '/dav/gone/inner.txt', { body: 'inner' });
    expect((await dav('DELETE', '/dav/gone/')).status).toBe(204);
    expect((await propfind(dav, '/dav/gone/', '0')).status).toBe(404);
    const trash = await server.request('GET', '/api/trash', { token });
    expect(trash.body.folders.map((folder: { name: string }) => folder.name)).toEqual(['gone']);
  });

  it('copies and moves with Destination and Overwrite, a move keeping the file’s id', async () => {
    const { dav, token, user } = await davUser();
    await dav('MKCOL', '/dav/src');
    await dav('PUT', '/dav/src/a.txt', { body: 'aaa' });
    const host = new URL(server.url).host;
    expect((await dav('COPY', '/dav/src/', { headers: { destination: `http://${host}/dav/copy/` } })).status).toBe(201);
    expect((await dav('GET', '/dav/copy/a.txt')).text).toBe('aaa');
    expect((await dav('COPY', '/dav/src/a.txt', { headers: { destination: '/dav/copy/a.txt', overwrite: 'F' } })).status).toBe(412);
    const [original] = await filesIn(
      token,
      (await server.request('GET', '/api/user/folders', { token })).body.folders.find((f: { name: string }) => f.name === 'src').id,
    );
    expect((await dav('MOVE', '/dav/src/a.txt', { headers: { destination: '/dav/moved.txt' } })).status).toBe(201);
    expect((await filesIn(token)).map((file) => file.id)).toEqual([original?.id]);
    expect((await dav('MOVE', '/dav/src/', { headers: { destination: '/dav/src/inside/' } })).status).toBe(409);
    await assertStorageConsistent(server, user.id);
  });
});

describe('the rules every upload follows', () => {
  it('refuses a file over the plan’s limit with 413 before its body, keeping nothing', async () => {
    const { user, email, token } = await davUser();
    const password = await davPassword(server, { token });
    const blobsBefore = await server.blobCount();
    const { port } = new URL(server.url);
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request({
        host: '127.0.0.1',
        port,
        method: 'PUT',
        path: '/dav/huge.bin',
        headers: { authorization: basicAuth(email, password), 'content-length': String(200 * 1024 * 1024), expect: '100-continue' },
      });
      request.on('continue', () => reject(new Error('the server asked for the body')));
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
        request.destroy();
      });
      request.on('error', () => {});
      request.flushHeaders();
    });
    expect(status).toBe(413);
    expect(await server.blobCount()).toBe(blobsBefore);
    await assertStorageConsistent(server, user.id);
  });

  it('refuses a file past the quota with 507, keeping nothing', async () => {
    const { dav, user } = await davUser();
    const db = server.container.database.db;
    await db
      .updateTable('users')
      .set({ storage_used: 524288000 - 50 })
      .where('id', '=', user.id)
      .execute();
    const blobsBefore = await server.blobCount();
    expect((await dav('PUT', '/dav/over.bin', { body: Buffer.alloc(100) })).status).toBe(507);
    expect((await propfind(dav, '/dav/over.bin', '0')).status).toBe(404);
    expect(await server.blobCount()).toBe(blobsBefore);
    const row = await db.selectFrom('users').select('storage_used').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(Number(row.storage_used)).toBe(524288000 - 50);
  });

  it('counts PUTs in progress against the plan’s uploads at once (429), and keeps nothing of those cut off', async () => {
    const { user, email, token } = await davUser();
    const password = await davPassword(server, { token });
    const { port } = new URL(server.url);
    // Three uploads of the Free plan's three at once, each having sent part of its body.
    const open = await Promise.all(
      [1, 2, 3].map(
        (n) =>
          new Promise<http.ClientRequest>((resolve) => {
            const request = http.request({
              host: '127.0.0.1',
              port,
              method: 'PUT',
              path: `/dav/slow-${n}.bin`,
              headers: { authorization: basicAuth(email, password), 'content-length': '100000' },
            });
            request.on('error', () => {});
            request.write(Buffer.alloc(1000), () => resolve(request));
          }),
      ),
    );
    await expect
      .poll(async () =>
        Number(
          (
            await server.container.database.db
              .selectFrom('upload_reservations')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('user_id', '=', user.id)
              .executeTakeFirstOrThrow()
          ).n,
        ),
      )
      .toBe(3);
    const dav = await davClientFor(server, { email, token });
    expect((await dav('PUT', '/dav/fourth.txt', { body: 'x' })).status).toBe(429);
    for (const request of open) request.destroy();
    await expect
      .poll(
        async () =>
          (await server.container.database.db.selectFrom('upload_reservations').select('id').where('user_id', '=', user.id).execute())
            .length,
      )
      .toBe(0);
    expect(await filesIn(token)).toEqual([]);
    await assertStorageConsistent(server, user.id);
    // A client cutting its upload off is routine: no error is logged for it.
    expect(server.logs()).not.toMatch(/"level":50/);
  });

  it('refuses the names the JSON API refuses, with the same status, and creates nothing', async () => {
    const { dav, token } = await davUser();
    for (const path of [`/dav/${'n'.repeat(256)}.txt`, '/dav/%20padded.txt', '/dav/tab%09name.txt']) {
      expect((await dav('PUT', path, { body: 'x' })).status, path).toBe(400);
    }
    expect((await dav('MKCOL', '/dav/%20padded')).status).toBe(400);
    expect(await filesIn(token)).toEqual([]);
  });

  it('needs the parent to exist (409) and refuses MKCOL on a taken path (405) or with a body (415)', async () => {
    const { dav } = await davUser();
    expect((await dav('PUT', '/dav/no/such/file.txt', { body: 'x' })).status).toBe(409);
    expect((await dav('MKCOL', '/dav/no/such')).status).toBe(409);
    expect((await dav('MKCOL', '/dav/here')).status).toBe(201);
    expect((await dav('MKCOL', '/dav/here')).status).toBe(405);
    expect((await dav('MKCOL', '/dav/body', { body: '<x/>' })).status).toBe(415);
  });
});

describe('hostile input gets a 4xx and changes nothing', () => {
  it('refuses dot segments, encoded separators and NUL in paths', async () => {
    const { dav, token } = await davUser();
    await dav('MKCOL', '/dav/box');
    for (const path of [
      '/dav/box/../../api/files',
      '/dav/box/%2e%2e/x.txt',
      '/dav/box%2Fx.txt',
      '/dav/box%5Cx.txt',
      '/dav/x%00.txt',
      '/dav/%2E',
    ]) {
      const answer = await dav('PUT', path, { body: 'x' });
      expect(answer.status, path).toBeGreaterThanOrEqual(400);
      expect(answer.status, path).toBeLessThan(500);
    }
    expect(await filesIn(token)).toEqual([]);
  });

  it('refuses malformed XML, DOCTYPEs and entities (no XXE, no billion laughs), and bodies over 1 MiB', async () => {
    const { dav } = await davUser();
    await dav('PUT', '/dav/t.txt', { body: 't' });
    const bodies = [
      '<D:propfind xmlns:D="DAV:"><D:prop>',
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><D:propfind xmlns:D="DAV:"><D:prop><D:displayname>&xxe;</D:displayname></D:prop></D:propfind>',
      `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x xmlns="urn:x">&lol2;</x></D:prop></D:set></D:propertyupdate>`,
      '<D:propfind xmlns:D="DAV:"><D:prop><D:displayname>&undeclared;</D:displayname></D:prop></D:propfind>',
    ];
    for (const body of bodies) {
      expect((await propfind(dav, '/dav/t.txt', '0', body)).status, body).toBe(400);
      expect((await dav('PROPPATCH', '/dav/t.txt', { body })).status, body).toBe(400);
    }
    const huge = `<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x xmlns="urn:x">${'a'.repeat(2 * 1024 * 1024)}</x></D:prop></D:set></D:propertyupdate>`;
    expect((await dav('PROPPATCH', '/dav/t.txt', { body: huge })).status).toBe(413);
    const asked = '<D:propfind xmlns:D="DAV:"><D:prop><x xmlns="urn:x"/></D:prop></D:propfind>';
    expect((await propfind(dav, '/dav/t.txt', '0', asked)).text).toContain('404 Not Found');
  });

  it('refuses a Destination on another host (502) or outside /dav/ (403)', async () => {
    const { dav } = await davUser();
    await dav('PUT', '/dav/d.txt', { body: 'd' });
    expect((await dav('MOVE', '/dav/d.txt', { headers: { destination: 'http://elsewhere.example/dav/d2.txt' } })).status).toBe(502);
    expect((await dav('COPY', '/dav/d.txt', { headers: { destination: '/api/files' } })).status).toBe(403);
    expect((await dav('COPY', '/dav/d.txt', { headers: { destination: '/dav/../api/x' } })).status).toBe(400);
    expect((await dav('GET', '/dav/d.txt')).text).toBe('d');
  });

  it('never reaches another user’s items', async () => {
    const owner = await davUser();
    await owner.dav('MKCOL', '/dav/private');
    await owner.dav('PUT', '/dav/private/secret.txt', { body: 'secret' });
    const other = await davUser();
    expect(hrefs((await propfind(other.dav, '/dav/', '1')).text)).toEqual(['/dav/']);
    expect((await other.dav('GET', '/dav/private/secret.txt')).status).toBe(404);
    expect((await other.dav('DELETE', '/dav/private/')).status).toBe(404);
    expect((await other.dav('COPY', '/dav/private/secret.txt', { headers: { destination: '/dav/mine.txt' } })).status).toBe(404);
    expect((await owner.dav('GET', '/dav/private/secret.txt')).text).toBe('secret');
  });
});

describe('locks', () => {
  const lockBody =
    '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>tester</D:owner></D:lockinfo>';

  it('hold on every node: a write without the token is 423 on another node, with it the write goes through', async () => {
    const { dav, email, token } = await davUser();
    await dav('PUT', '/dav/shared.docx', { body: 'v1' });
    const locked = await dav('LOCK', '/dav/shared.docx', { body: lockBody, headers: { timeout: 'Second-600' } });
    expect(locked.status).toBe(200);
    const lockToken = locked.headers['lock-token'] as string;
    expect(lockToken).toMatch(/^<urn:uuid:/);

    const second = await server.startNode();
    try {
      const auth = basicAuth(email, await davPassword(server, { token }));
      const refused = await davRequest(second, 'PUT', '/dav/shared.docx', { auth, body: 'v2' });
      expect(refused.status).toBe(423);
      expect(refused.text).toContain('lock-token-submitted');
      const allowed = await davRequest(second, 'PUT', '/dav/shared.docx', { auth, body: 'v2', headers: { if: `(${lockToken})` } });
      expect(allowed.status).toBe(204);
    } finally {
      await second.close();
    }
    expect((await dav('DELETE', '/dav/shared.docx')).status).toBe(423);
    expect((await dav('UNLOCK', '/dav/shared.docx', { headers: { 'lock-token': lockToken } })).status).toBe(204);
    expect((await dav('DELETE', '/dav/shared.docx')).status).toBe(204);
  });

  it('expire after their timeout', async () => {
    const { dav } = await davUser();
    await dav('PUT', '/dav/brief.txt', { body: 'x' });
    expect((await dav('LOCK', '/dav/brief.txt', { body: lockBody, headers: { timeout: 'Second-60' } })).status).toBe(200);
    expect((await dav('PUT', '/dav/brief.txt', { body: 'y' })).status).toBe(423);
    server.clock.advance(61_000);
    expect((await dav('PUT', '/dav/brief.txt', { body: 'y' })).status).toBe(204);
  });
});
