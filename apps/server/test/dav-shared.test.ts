import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { changesSince, latestCursor } from '@cloudvault/test-support/changes';
import { createFolder, listFiles, uploadFile } from '@cloudvault/test-support/drive';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { davClientTestsRun, requireDavClient, runTool } from './helpers/dav-clients.ts';
import { davClientFor, davPassword } from './helpers/dav-requests.ts';
import { createVerifiedUser } from './helpers/factories.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

type Dav = Awaited<ReturnType<typeof davClientFor>>;
type Person = Awaited<ReturnType<typeof createVerifiedUser>> & { dav: Dav };

async function person(firstName: string, lastName: string): Promise<Person> {
  const user = await createVerifiedUser(server, { firstName, lastName });
  return { ...user, dav: await davClientFor(server, user) };
}

/** Shares the owner's folder (or file) with the recipient in a role; answers the share's id. */
async function share(owner: Person, item: { folderId?: string; fileId?: string }, recipient: Person, role: 'viewer' | 'editor') {
  const path = item.folderId ? `/api/user/folders/${item.folderId}/share` : `/api/files/${item.fileId}/share`;
  const answer = await server.request('POST', path, { token: owner.token, body: { shareType: 'private', email: recipient.email, role } });
  expect(answer.status).toBe(200);
  return answer.body.share.id as string;
}

const propfind = (dav: Dav, path: string, depth = '1') => dav('PROPFIND', path, { headers: { depth } });
/** The hrefs of a multistatus, decoded. */
const hrefs = (xml: string) => [...xml.matchAll(/<D:href>([^<]*)<\/D:href>/g)].map((match) => decodeURIComponent(match[1] as string));
const codeOf = (answer: { text: string }) => (JSON.parse(answer.text) as { code: string }).code;
const storageUsed = async (token: string) =>
  (await server.request('GET', '/api/user/dashboard', { token })).body.storageInfo.storageUsed as number;

const SHARED = '/dav/Shared%20with%20me';

/** An owner with a folder "Family" holding "notes.txt" and a sub-folder "Trips". */
async function familyFolder(owner: Person) {
  const family = await createFolder(server, owner.token, 'Family');
  const trips = await createFolder(server, owner.token, 'Trips', family.id);
  const notes = await uploadFile(server, owner.token, 'family notes', { name: 'notes.txt', folderId: family.id });
  return { family, trips, notes: notes.body.file };
}

describe('Shared with me over WebDAV', () => {
  it('is listed in /dav/ once something is shared, and lists the shared folders and files by name', async () => {
    const owner = await person('Ann', 'Lee');
    const reader = await person('Ben', 'Ray');
    expect(hrefs((await propfind(reader.dav, '/dav/')).text)).toEqual(['/dav/']);
    // Reachable before anything is shared, empty.
    expect(hrefs((await propfind(reader.dav, `${SHARED}/`)).text)).toEqual(['/dav/Shared with me/']);

    const { family } = await familyFolder(owner);
    const photo = await uploadFile(server, owner.token, 'a photo', { name: 'photo.jpg' });
    await share(owner, { folderId: family.id }, reader, 'viewer');
    await share(owner, { fileId: photo.body.file.id }, reader, 'viewer');

    const root = await propfind(reader.dav, '/dav/');
    expect(hrefs(root.text)).toEqual(['/dav/', '/dav/Shared with me/']);
    const shared = await propfind(reader.dav, `${SHARED}/`);
    expect(shared.status).toBe(207);
    expect(hrefs(shared.text)).toEqual(['/dav/Shared with me/', '/dav/Shared with me/Family/', '/dav/Shared with me/photo.jpg']);
    expect(hrefs((await propfind(reader.dav, `${SHARED}/Family/`)).text)).toEqual([
      '/dav/Shared with me/Family/',
      '/dav/Shared with me/Family/Trips/',
      '/dav/Shared with me/Family/notes.txt',
    ]);
    const got = await reader.dav('GET', `${SHARED}/photo.jpg`);
    expect([got.status, got.text]).toEqual([200, 'a photo']);
  });

  it('refuses writes onto Shared with me itself and directly into it', async () => {
    const reader = await person('Cy', 'Doe');
    for (const [method, path] of [
      ['MKCOL', `${SHARED}/`],
      ['DELETE', `${SHARED}/`],
      ['PUT', `${SHARED}/new.txt`],
      ['MKCOL', `${SHARED}/New`],
      ['PROPPATCH', `${SHARED}/`],
      ['LOCK', `${SHARED}/`],
    ] as const) {
      const body =
        method === 'PROPPATCH'
          ? '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x xmlns="urn:x">1</x></D:prop></D:set></D:propertyupdate>'
          : method === 'LOCK'
            ? '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>'
            : method === 'PUT'
              ? 'x'
              : undefined;
      const answer = await reader.dav(method, path, body ? { body } : {});
      expect([method, path, answer.status]).toEqual([method, path, 403]);
    }
    await reader.dav('MKCOL', '/dav/Mine');
    for (const method of ['MOVE', 'COPY']) {
      const answer = await reader.dav(method, '/dav/Mine', { headers: { destination: `${SHARED}/Mine` } });
      expect([method, answer.status]).toEqual([method, 403]);
    }
  });

  it('gives a viewer reads and refuses every write with 403 READ_ONLY_SHARE; COPY out into their own files is theirs', async () => {
    const owner = await person('Dee', 'Fox');
    const viewer = await person('Eve', 'Gray');
    const { family } = await familyFolder(owner);
    await share(owner, { folderId: family.id }, viewer, 'viewer');

    const got = await viewer.dav('GET', `${SHARED}/Family/notes.txt`);
    expect([got.status, got.text]).toEqual([200, 'family notes']);
    expect((await viewer.dav('HEAD', `${SHARED}/Family/notes.txt`)).status).toBe(200);

    const refused = [
      await viewer.dav('PUT', `${SHARED}/Family/new.txt`, { body: 'new' }),
      await viewer.dav('PUT', `${SHARED}/Family/notes.txt`, { body: 'changed' }),
      await viewer.dav('MKCOL', `${SHARED}/Family/Sub`),
      await viewer.dav('DELETE', `${SHARED}/Family/notes.txt`),
      await viewer.dav('MOVE', `${SHARED}/Family/notes.txt`, { headers: { destination: `${SHARED}/Family/Trips/notes.txt` } }),
      await viewer.dav('COPY', `${SHARED}/Family/notes.txt`, { headers: { destination: `${SHARED}/Family/Trips/notes.txt` } }),
      await viewer.dav('LOCK', `${SHARED}/Family/notes.txt`, {
        body: '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>',
      }),
    ];
    expect(refused.map((answer) => [answer.status, codeOf(answer)])).toEqual(refused.map(() => [403, 'READ_ONLY_SHARE']));
    // The shared folder itself, to a viewer, is as read-only as what is in it.
    expect((await viewer.dav('DELETE', `${SHARED}/Family/`)).status).toBe(403);
    expect(await listFiles(server, owner.token, family.id)).toEqual([expect.objectContaining({ originalName: 'notes.txt', size: 12 })]);

    // A copy out into their own files is their upload, on their storage.
    expect((await viewer.dav('COPY', `${SHARED}/Family/notes.txt`, { headers: { destination: '/dav/mine.txt' } })).status).toBe(201);
    expect((await viewer.dav('GET', '/dav/mine.txt')).text).toBe('family notes');
    expect(await storageUsed(viewer.token)).toBe(12);
  });

  it("lets an editor write inside the shared folder, on the owner's storage and into the owner's Trash", async () => {
    const owner = await person('Fay', 'Hall');
    const editor = await person('Gus', 'Ives');
    const { family, trips } = await familyFolder(owner);
    await share(owner, { folderId: family.id }, editor, 'editor');
    const before = await storageUsed(owner.token);

    const put = await editor.dav('PUT', `${SHARED}/Family/Trips/plan.txt`, { body: 'go north', headers: { 'content-type': 'text/plain' } });
    expect(put.status).toBe(201);
    expect(put.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(await listFiles(server, owner.token, trips.id)).toEqual([expect.objectContaining({ originalName: 'plan.txt', size: 8 })]);
    expect(await storageUsed(owner.token)).toBe(before + 8);
    expect(await storageUsed(editor.token)).toBe(0);

    expect((await editor.dav('MKCOL', `${SHARED}/Family/Photos`)).status).toBe(201);
    const moved = await editor.dav('MOVE', `${SHARED}/Family/Trips/plan.txt`, {
      headers: { destination: `${SHARED}/Family/Photos/plan.txt` },
    });
    expect(moved.status).toBe(201);
    expect(hrefs((await propfind(owner.dav, '/dav/Family/Photos/')).text)).toEqual(['/dav/Family/Photos/', '/dav/Family/Photos/plan.txt']);
    const copied = await editor.dav('COPY', `${SHARED}/Family/notes.txt`, {
      headers: { destination: `${SHARED}/Family/Photos/notes copy.txt` },
    });
    expect(copied.status).toBe(201);
    expect(await storageUsed(owner.token)).toBe(before + 8 + 12);

    expect((await editor.dav('DELETE', `${SHARED}/Family/Photos/plan.txt`)).status).toBe(204);
    const trash = await server.request('GET', '/api/trash', { token: owner.token });
    expect(trash.body.files).toEqual([
      expect.objectContaining({ originalName: 'plan.txt', deletedBy: { firstName: 'Gus', lastName: 'Ives' } }),
    ]);
    expect((await server.request('GET', '/api/trash', { token: editor.token })).body.files).toEqual([]);

    // The shared folder itself stays as its owner placed it.
    const locked = [
      await editor.dav('DELETE', `${SHARED}/Family/`),
      await editor.dav('MOVE', `${SHARED}/Family/`, { headers: { destination: `${SHARED}/Renamed/` } }),
    ];
    expect(locked.map((answer) => [answer.status, codeOf(answer)])).toEqual([
      [403, 'SHARE_ROOT_LOCKED'],
      [403, 'SHARE_ROOT_LOCKED'],
    ]);
    // Moves do not cross between the share and the editor's own files (RFC 4918's 502: copy, then delete).
    await editor.dav('PUT', '/dav/own.txt', { body: 'own' });
    const across = [
      await editor.dav('MOVE', '/dav/own.txt', { headers: { destination: `${SHARED}/Family/own.txt` } }),
      await editor.dav('MOVE', `${SHARED}/Family/notes.txt`, { headers: { destination: '/dav/notes.txt' } }),
    ];
    expect(across.map((answer) => answer.status)).toEqual([502, 502]);
    // A LOCK (as Finder and Office take before they write) is an editor's to take; on a new name it makes an empty file of the owner's.
    const lock = await editor.dav('LOCK', `${SHARED}/Family/Photos/draft.docx`, {
      body: '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>',
    });
    expect(lock.status).toBe(201);
    const token = lock.headers['lock-token'] as string;
    expect((await editor.dav('PUT', `${SHARED}/Family/Photos/draft.docx`, { body: 'draft' })).status).toBe(423);
    expect((await editor.dav('PUT', `${SHARED}/Family/Photos/draft.docx`, { body: 'draft', headers: { if: `(${token})` } })).status).toBe(
      204,
    );
    expect((await owner.dav('GET', '/dav/Family/Photos/draft.docx')).text).toBe('draft');
    // A copy in is an upload into the owner's folder.
    expect((await editor.dav('COPY', '/dav/own.txt', { headers: { destination: `${SHARED}/Family/own.txt` } })).status).toBe(201);
    expect(await storageUsed(owner.token)).toBe(before + 8 + 12 + 5 + 3);
  });

  it('lets an editor of a file shared on its own give it new content, never move or delete it; a viewer neither', async () => {
    const owner = await person('Lia', 'Wu');
    const editor = await person('Max', 'Xu');
    const viewer = await person('Ned', 'Yu');
    const plan = await uploadFile(server, owner.token, 'first draft', { name: 'plan.txt' });
    await share(owner, { fileId: plan.body.file.id }, editor, 'editor');
    await share(owner, { fileId: plan.body.file.id }, viewer, 'viewer');

    const refused = await viewer.dav('PUT', `${SHARED}/plan.txt`, { body: 'by the viewer' });
    expect([refused.status, codeOf(refused)]).toEqual([403, 'READ_ONLY_SHARE']);
    expect((await editor.dav('PUT', `${SHARED}/plan.txt`, { body: 'second draft' })).status).toBe(204);
    expect((await owner.dav('GET', '/dav/plan.txt')).text).toBe('second draft');
    const locked = [
      await editor.dav('DELETE', `${SHARED}/plan.txt`),
      await editor.dav('MOVE', `${SHARED}/plan.txt`, { headers: { destination: `${SHARED}/renamed.txt` } }),
    ];
    expect(locked.map((answer) => [answer.status, codeOf(answer)])).toEqual([
      [403, 'SHARE_ROOT_LOCKED'],
      [403, 'SHARE_ROOT_LOCKED'],
    ]);
  });

  it("puts an editor's writes in the owner's change feed and the members' as the owner's own, and moves the shared folder's ETag", async () => {
    const owner = await person('Ola', 'Zed');
    const editor = await person('Pia', 'Abe');
    const { family } = await familyFolder(owner);
    const shareId = await share(owner, { folderId: family.id }, editor, 'editor');
    const etagOf = async (who: Person, path: string) =>
      /<D:getetag>([^<]*)<\/D:getetag>/.exec((await propfind(who.dav, path, '0')).text)?.[1];
    const etagBefore = await etagOf(editor, `${SHARED}/Family/`);
    const [ownerCursor, editorCursor] = [await latestCursor(server, owner.token), await latestCursor(server, editor.token)];

    expect((await editor.dav('PUT', `${SHARED}/Family/new.txt`, { body: 'new' })).status).toBe(201);
    const [file] = await listFiles(server, owner.token, family.id).then((files) => files.filter((one) => one.originalName === 'new.txt'));
    const entry = { op: 'created', kind: 'file', id: file?.id, parentId: family.id, name: 'new.txt' };
    expect(await changesSince(server, owner.token, ownerCursor)).toEqual([expect.objectContaining(entry)]);
    expect(await changesSince(server, editor.token, editorCursor)).toEqual([expect.objectContaining({ ...entry, shareId })]);
    expect(await etagOf(editor, `${SHARED}/Family/`)).not.toBe(etagBefore);
    expect(await etagOf(editor, `${SHARED}/Family/`)).toBe(await etagOf(owner, '/dav/Family/'));
  });

  it('answers 404 for every path of a share once it is revoked, and 403 to a viewer the moment an editor is made one', async () => {
    const owner = await person('Hal', 'Jay');
    const member = await person('Ida', 'Kim');
    const { family } = await familyFolder(owner);
    const shareId = await share(owner, { folderId: family.id }, member, 'editor');
    expect((await member.dav('PUT', `${SHARED}/Family/a.txt`, { body: 'a' })).status).toBe(201);

    await share(owner, { folderId: family.id }, member, 'viewer');
    const refused = await member.dav('PUT', `${SHARED}/Family/b.txt`, { body: 'b' });
    expect([refused.status, codeOf(refused)]).toEqual([403, 'READ_ONLY_SHARE']);

    expect((await server.request('DELETE', `/api/shares/${shareId}`, { token: owner.token })).status).toBe(204);
    expect((await propfind(member.dav, `${SHARED}/Family/`, '0')).status).toBe(404);
    expect((await member.dav('GET', `${SHARED}/Family/notes.txt`)).status).toBe(404);
    expect(hrefs((await propfind(member.dav, `${SHARED}/`)).text)).toEqual(['/dav/Shared with me/']);
    expect(hrefs((await propfind(member.dav, '/dav/')).text)).toEqual(['/dav/']);
    expect((await member.dav('PUT', `${SHARED}/Family/c.txt`, { body: 'c' })).status).toBe(403);
  });

  it('names shared items of the same name after their owners, as the owners let themselves be named', async () => {
    const ann = await person('Ann', 'Moe');
    const bob = await person('Bob', 'Noe');
    const reader = await person('Cat', 'Poe');
    for (const owner of [ann, bob]) {
      const photos = await createFolder(server, owner.token, 'Photos');
      await uploadFile(server, owner.token, `${owner.firstName}'s`, { name: 'who.txt', folderId: photos.id });
      await share(owner, { folderId: photos.id }, reader, 'viewer');
    }
    expect(hrefs((await propfind(reader.dav, `${SHARED}/`)).text)).toEqual([
      '/dav/Shared with me/',
      '/dav/Shared with me/Photos (Ann)/',
      '/dav/Shared with me/Photos (Bob)/',
    ]);
    expect((await reader.dav('GET', `${SHARED}/Photos%20(Bob)/who.txt`)).text).toBe("Bob's");
  });

  it('keeps the caller’s own top-level "Shared with me" reachable under "Shared with me (My Files)"', async () => {
    const owner = await person('Dan', 'Roe');
    const reader = await person('Eli', 'Soe');
    const { family } = await familyFolder(owner);
    await share(owner, { folderId: family.id }, reader, 'viewer');
    const own = await createFolder(server, reader.token, 'Shared with me');
    await uploadFile(server, reader.token, 'mine', { name: 'kept.txt', folderId: own.id });

    expect(hrefs((await propfind(reader.dav, '/dav/')).text)).toEqual(['/dav/', '/dav/Shared with me/', '/dav/Shared with me (My Files)/']);
    expect((await reader.dav('GET', '/dav/Shared%20with%20me%20(My%20Files)/kept.txt')).text).toBe('mine');
    expect((await reader.dav('PUT', '/dav/Shared%20with%20me%20(My%20Files)/more.txt', { body: 'more' })).status).toBe(201);
    expect((await listFiles(server, reader.token, own.id)).map((file) => file.originalName).sort()).toEqual(['kept.txt', 'more.txt']);
  });
});

describe.runIf(davClientTestsRun('rclone'))('rclone through Shared with me', () => {
  let workDir: string;
  beforeAll(async () => {
    requireDavClient('rclone');
    workDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-rclone-shared-'));
  });
  afterAll(async () => {
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  /** rclone with a `cloud:` remote of the person's /dav/, as dav-rclone.test.ts configures it; answers its exit code and output. */
  async function rcloneAs(who: Person, ...args: string[]) {
    const obscured = await runTool('rclone', ['obscure', await davPassword(server, who)]);
    return runTool('rclone', ['--config', '/dev/null', '--low-level-retries', '1', '--retries', '1', ...args], {
      env: {
        RCLONE_CONFIG_CLOUD_TYPE: 'webdav',
        RCLONE_CONFIG_CLOUD_URL: `${server.url}/dav/`,
        RCLONE_CONFIG_CLOUD_VENDOR: 'owncloud',
        RCLONE_CONFIG_CLOUD_USER: who.email,
        RCLONE_CONFIG_CLOUD_PASS: obscured.stdout.trim(),
      },
    });
  }

  it(
    "lists a share, copies a tree into it as an editor (the owner's files) and back, and fails a viewer's copy in",
    { timeout: 120_000 },
    async () => {
      const owner = await person('Ivy', 'Tan');
      const editor = await person('Jon', 'Ude');
      const viewer = await person('Kay', 'Vu');
      const { family } = await familyFolder(owner);
      await share(owner, { folderId: family.id }, editor, 'editor');
      await share(owner, { folderId: family.id }, viewer, 'viewer');

      const listed = await rcloneAs(viewer, 'lsf', 'cloud:Shared with me/Family');
      expect([listed.code, listed.stdout.split('\n').filter(Boolean).sort()]).toEqual([0, ['Trips/', 'notes.txt']]);

      const source = path.join(workDir, 'source');
      await mkdir(path.join(source, 'day 1'), { recursive: true });
      await writeFile(path.join(source, 'day 1', 'photo é.txt'), 'a photo');
      await writeFile(path.join(source, 'list.txt'), 'a list');
      const up = await rcloneAs(editor, 'copy', source, 'cloud:Shared with me/Family/Holiday');
      expect(up.code, up.stderr).toBe(0);
      const ownerSees = await rcloneAs(owner, 'lsf', '-R', 'cloud:Family/Holiday');
      expect(ownerSees.stdout.split('\n').filter(Boolean).sort()).toEqual(['day 1/', 'day 1/photo é.txt', 'list.txt']);

      const back = path.join(workDir, 'back');
      const down = await rcloneAs(viewer, 'copy', 'cloud:Shared with me/Family/Holiday', back);
      expect(down.code, down.stderr).toBe(0);
      expect(await readFile(path.join(back, 'day 1', 'photo é.txt'), 'utf8')).toBe('a photo');

      const refused = await rcloneAs(viewer, 'copy', source, 'cloud:Shared with me/Family/Viewer');
      expect(refused.code).not.toBe(0);
      expect(await listFiles(server, owner.token, family.id)).toEqual([expect.objectContaining({ originalName: 'notes.txt' })]);
    },
  );
});
