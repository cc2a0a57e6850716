import { createHash } from 'node:crypto';
import { createUser } from '@cloudvault/test-support/accounts';
import { changesMadeBy } from '@cloudvault/test-support/changes';
import { createFolder, uploadFile } from '@cloudvault/test-support/drive';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { davClientFor } from './helpers/dav-requests.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

// Content hashes (issue 37): `contentHash` on every file the JSON API presents, SHA-256 in
// WebDAV's oc:checksums, and folder ETags that change exactly when something below changes.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

type Dav = Awaited<ReturnType<typeof davClientFor>>;

const sha256 = (bytes: string | Buffer) => createHash('sha256').update(bytes).digest('hex');
const OC_NS = 'http://owncloud.org/ns';

const propfind = (dav: Dav, path: string, depth: '0' | '1', body?: string) =>
  dav('PROPFIND', path, { headers: { depth, 'content-type': 'application/xml' }, ...(body ? { body } : {}) });
const named = (...props: string[]) =>
  `<?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:oc="${OC_NS}"><d:prop>${props.join('')}</d:prop></d:propfind>`;

/** Each `<D:response>` of a multistatus by its decoded href. */
function responses(xml: string): Map<string, string> {
  const byHref = new Map<string, string>();
  for (const [response] of xml.matchAll(/<D:response>.*?<\/D:response>/gs)) {
    const href = /<D:href>([^<]*)<\/D:href>/.exec(response)?.[1] as string;
    byHref.set(decodeURIComponent(href), response);
  }
  return byHref;
}
const etagIn = (response: string | undefined) => /<D:getetag>([^<]*)<\/D:getetag>/.exec(response ?? '')?.[1];

/** The getetag of each member of a collection (and the collection itself), by href. */
async function etags(dav: Dav, path: string): Promise<Record<string, string | undefined>> {
  const answer = await propfind(dav, path, '1', named('<d:getetag/>'));
  expect(answer.status).toBe(207);
  return Object.fromEntries([...responses(answer.text)].map(([href, response]) => [href, etagIn(response)]));
}
const etagOf = async (dav: Dav, path: string) =>
  etagIn([...responses((await propfind(dav, path, '0', named('<d:getetag/>'))).text).values()][0]);

async function davUser() {
  const user = await createUser(server);
  return { ...user, dav: await davClientFor(server, user) };
}

describe('contentHash in the JSON API', () => {
  it('gives every presented file the lowercase hex SHA-256 of its bytes: listings, search, Starred, Recent, a link', async () => {
    const { token } = await createUser(server);
    const folder = await createFolder(server, token, 'Hashed');
    const bytes = 'the bytes a client may already hold';
    const uploaded = await uploadFile(server, token, Buffer.from(bytes), { name: 'known.txt', folderId: folder.id });
    expect(uploaded.status).toBe(201);
    const hash = sha256(bytes);
    expect(uploaded.body.file.contentHash).toBe(hash);
    const atRoot = await uploadFile(server, token, Buffer.from('root bytes'), { name: 'root.txt' });
    const hashOf = (files: Array<{ id: string; contentHash?: string }>, id: string) => files.find((file) => file.id === id)?.contentHash;

    // A folder's listing is JSON the database keeps (migration 30): the same field, at the root too.
    expect(hashOf((await server.request('GET', `/api/files?folderId=${folder.id}`, { token })).body.files, uploaded.body.file.id)).toBe(
      hash,
    );
    expect(hashOf((await server.request('GET', '/api/files', { token })).body.files, atRoot.body.file.id)).toBe(sha256('root bytes'));
    const sorted = await server.request('GET', `/api/files?folderId=${folder.id}&sort=size&order=desc&limit=10`, { token });
    expect(hashOf(sorted.body.files, uploaded.body.file.id)).toBe(hash);
    expect(hashOf((await server.request('GET', '/api/files?search=known', { token })).body.files, uploaded.body.file.id)).toBe(hash);

    expect((await server.request('PUT', `/api/starred/file/${uploaded.body.file.id}`, { token })).status).toBeLessThan(300);
    expect(hashOf((await server.request('GET', '/api/starred', { token })).body.files, uploaded.body.file.id)).toBe(hash);
    expect(hashOf((await server.request('GET', '/api/recent', { token })).body.files, uploaded.body.file.id)).toBe(hash);

    const link = await server.request('POST', `/api/user/folders/${folder.id}/share`, { token, body: { shareType: 'public' } });
    const shareToken = (link.body.shareUrl as string).split('/s/')[1];
    const items = await fetch(`${server.url}/api/public/shares/${shareToken}/items`);
    expect(hashOf(((await items.json()) as { files: Array<{ id: string; contentHash: string }> }).files, uploaded.body.file.id)).toBe(hash);
  });

  it('follows new content in the stored listing: a file given new bytes lists their hash', async () => {
    const { token, dav } = await davUser();
    expect((await dav('PUT', '/dav/doc.txt', { body: 'version one' })).status).toBe(201);
    const [first] = (await server.request('GET', '/api/files', { token })).body.files as Array<{ id: string; contentHash: string }>;
    expect(first?.contentHash).toBe(sha256('version one'));
    expect((await dav('PUT', '/dav/doc.txt', { body: 'version two' })).status).toBe(204);
    const listed = (await server.request('GET', '/api/files', { token })).body.files as Array<{ id: string; contentHash: string }>;
    expect(listed).toEqual([expect.objectContaining({ id: first?.id, contentHash: sha256('version two') })]);
  });
});

describe('WebDAV checksums', () => {
  it('answers oc:checksums with the SHA-256 when named and in allprop, for files only, and sends it with GET', async () => {
    const { dav } = await davUser();
    expect((await dav('MKCOL', '/dav/Docs')).status).toBe(201);
    const bytes = Buffer.from('checksummed content\n');
    expect((await dav('PUT', '/dav/Docs/a.txt', { body: bytes })).status).toBe(201);
    const checksums = `<checksums xmlns="${OC_NS}"><checksum>SHA256:${sha256(bytes)}</checksum></checksums>`;

    // As rclone's nextcloud and owncloud vendors ask: by name, with a property we do not have.
    const asked = await propfind(dav, '/dav/Docs/', '1', named('<d:getetag/>', '<oc:checksums/>', '<oc:permissions/>'));
    expect(asked.status).toBe(207);
    const byHref = responses(asked.text);
    const file = byHref.get('/dav/Docs/a.txt') as string;
    expect(file).toMatch(new RegExp(`<D:prop><D:getetag>[^<]+</D:getetag>${checksums}</D:prop><D:status>HTTP/1.1 200 OK`));
    expect(file).toContain(`<permissions xmlns="${OC_NS}"/></D:prop><D:status>HTTP/1.1 404 Not Found`);
    // A folder has none: named, it is not found.
    expect(byHref.get('/dav/Docs/')).toMatch(new RegExp(`<checksums xmlns="${OC_NS}"/>.*404 Not Found`));

    const all = await propfind(dav, '/dav/Docs/', '1');
    expect(responses(all.text).get('/dav/Docs/a.txt')).toContain(checksums);
    expect(responses(all.text).get('/dav/Docs/')).not.toContain('checksums');

    const names = await propfind(dav, '/dav/Docs/a.txt', '0', '<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:propname/></d:propfind>');
    expect(names.text).toContain(`<checksums xmlns="${OC_NS}"/>`);

    const got = await dav('GET', '/dav/Docs/a.txt');
    expect(got.headers['oc-checksum']).toBe(`SHA256:${sha256(bytes)}`);

    // New content, new checksum.
    expect((await dav('PUT', '/dav/Docs/a.txt', { body: 'other' })).status).toBe(204);
    const after = await propfind(dav, '/dav/Docs/a.txt', '0', named('<oc:checksums/>'));
    expect(after.text).toContain(`<checksum>SHA256:${sha256('other')}</checksum>`);
  });

  it("keeps a client's PROPPATCH of oc:checksums from replacing the server's", async () => {
    const { dav } = await davUser();
    await dav('PUT', '/dav/b.txt', { body: 'bee' });
    const update = `<?xml version="1.0"?><d:propertyupdate xmlns:d="DAV:" xmlns:oc="${OC_NS}"><d:set><d:prop><oc:checksums><oc:checksum>SHA1:${'0'.repeat(40)}</oc:checksum></oc:checksums></d:prop></d:set></d:propertyupdate>`;
    expect((await dav('PROPPATCH', '/dav/b.txt', { body: update, headers: { 'content-type': 'application/xml' } })).status).toBe(207);
    for (const body of [named('<oc:checksums/>'), undefined]) {
      const answer = await propfind(dav, '/dav/b.txt', '0', body);
      expect(answer.text).toContain(`<checksum>SHA256:${sha256('bee')}</checksum>`);
      expect(answer.text).not.toContain('SHA1:');
    }
  });
});

describe('folder ETags', () => {
  /** The ETags of My Files, of its folders, and of the folders in Top and in Top/Middle, by href ('/dav/' for My Files). */
  async function snapshot(dav: Dav): Promise<Record<string, string | undefined>> {
    return {
      ...(await etags(dav, '/dav/')),
      ...(await etags(dav, '/dav/Top/')),
      ...(await etags(dav, '/dav/Top/Middle/')),
    };
  }
  const ABOVE = ['/dav/', '/dav/Top/', '/dav/Top/Middle/', '/dav/Top/Middle/Bottom/'];
  const ELSEWHERE = ['/dav/Elsewhere/', '/dav/Top/Sibling/'];

  it('change on every folder above a change, at any depth, and on no other folder', async () => {
    const { dav } = await davUser();
    for (const path of ['/dav/Top', '/dav/Top/Middle', '/dav/Top/Middle/Bottom', '/dav/Top/Sibling', '/dav/Elsewhere'])
      expect((await dav('MKCOL', path)).status).toBe(201);
    const before = await snapshot(dav);
    for (const path of [...ABOVE, ...ELSEWHERE]) expect(before[path], path).toMatch(/^&#34;[0-9a-f]{32}&#34;$/);
    // Asked again with nothing changed: the same.
    expect(await snapshot(dav)).toEqual(before);

    const expectChanged = (from: Record<string, string | undefined>, to: Record<string, string | undefined>) => {
      for (const path of ABOVE) expect(to[path], path).not.toBe(from[path]);
      for (const path of ELSEWHERE) expect(to[path], path).toBe(before[path]);
    };
    // Something new two levels below Top: a folder, then a file.
    expect((await dav('MKCOL', '/dav/Top/Middle/Bottom/New')).status).toBe(201);
    const afterFolder = await snapshot(dav);
    expectChanged(before, afterFolder);
    expect((await dav('PUT', '/dav/Top/Middle/Bottom/file.txt', { body: 'new file' })).status).toBe(201);
    const afterFile = await snapshot(dav);
    expectChanged(afterFolder, afterFile);

    // A file renamed inside Bottom: Bottom and every folder above it change.
    const move = await dav('MOVE', '/dav/Top/Middle/Bottom/file.txt', {
      headers: { destination: `${server.url}/dav/Top/Middle/Bottom/renamed.txt` },
    });
    expect(move.status).toBe(201);
    expectChanged(afterFile, await snapshot(dav));
  });

  it('change when a modification time is set below, which the feed shows as updated', async () => {
    const { dav, token } = await davUser();
    await dav('MKCOL', '/dav/Dated');
    await dav('MKCOL', '/dav/Other');
    const before = await etags(dav, '/dav/');
    const stamped = await changesMadeBy(server, token, () =>
      dav('PUT', '/dav/Dated/old.txt', { body: 'old', headers: { 'x-oc-mtime': '1700000000' } }),
    );
    expect(stamped.map(({ op, name, modifiedAt }) => ({ op, name, modifiedAt }))).toEqual([
      { op: 'created', name: 'old.txt', modifiedAt: expect.any(String) },
      { op: 'updated', name: 'old.txt', modifiedAt: '2023-11-14T22:13:20.000Z' },
    ]);
    const afterPut = await etags(dav, '/dav/');
    expect(afterPut['/dav/Dated/']).not.toBe(before['/dav/Dated/']);

    const update = `<?xml version="1.0"?><d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:getlastmodified>Wed, 01 Jan 2020 00:00:00 GMT</d:getlastmodified></d:prop></d:set></d:propertyupdate>`;
    const patched = await changesMadeBy(server, token, async () =>
      expect((await dav('PROPPATCH', '/dav/Dated/old.txt', { body: update, headers: { 'content-type': 'application/xml' } })).status).toBe(
        207,
      ),
    );
    expect(patched).toEqual([
      expect.objectContaining({ op: 'updated', kind: 'file', name: 'old.txt', modifiedAt: '2020-01-01T00:00:00.000Z' }),
    ]);
    const afterPatch = await etags(dav, '/dav/');
    expect(afterPatch['/dav/Dated/']).not.toBe(afterPut['/dav/Dated/']);
    expect(afterPatch['/dav/Other/']).toBe(before['/dav/Other/']);
  });

  it('match an If header: a write conditioned on a folder’s old ETag is refused once something below changed', async () => {
    const { dav } = await davUser();
    await dav('MKCOL', '/dav/Guarded');
    const old = (await etagOf(dav, '/dav/Guarded/'))?.replaceAll('&#34;', '"');
    await dav('MKCOL', '/dav/Guarded/Inner');
    const refused = await dav('PROPPATCH', '/dav/Guarded/', {
      headers: { 'content-type': 'application/xml', if: `([${old}])` },
      body: `<?xml version="1.0"?><d:propertyupdate xmlns:d="DAV:" xmlns:x="urn:x"><d:set><d:prop><x:color>red</x:color></d:prop></d:set></d:propertyupdate>`,
    });
    expect(refused.status).toBe(412);
  });
});
