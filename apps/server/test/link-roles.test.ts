import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { subscribe } from '@cloudvault/test-support/checkout';
import { createFolder, uploadFile } from '@cloudvault/test-support/drive';
import { createVerifiedUser } from './helpers/factories.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

const HOUR = 60 * 60 * 1000;
/** The Free plan's largest file (apps/server/config/plans.json), which its upload links announce. */
const FREE_MAX_FILE_SIZE = 107374182;
/** A real PNG's first bytes: enough for its type, and bytes to compare. */
const PNG_BYTES = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('not really pixels, but bytes to compare')]);

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function visit(pathAndQuery: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/api/public/shares/${pathAndQuery}`, { headers });
  const bytes = Buffer.from(await response.arrayBuffer());
  const json = response.headers.get('content-type')?.includes('json') ? JSON.parse(bytes.toString()) : undefined;
  return { status: response.status, headers: response.headers, bytes, body: json };
}

const tokenOf = (shareUrl: string) => shareUrl.split('/s/')[1] as string;

/** An owner's folder Shared/{photo.png, page.html, notes.txt, bundle.zip, Inner/deep.txt}, and a file outside it. */
async function ownerWithTree(overrides: { firstName?: string } = {}) {
  const owner = await createUser(server, { firstName: 'Ada', lastName: 'Lovelace', ...overrides });
  const shared = (await createFolder(server, owner.token, 'Shared')).id;
  const inner = (await createFolder(server, owner.token, 'Inner', shared)).id;
  const upload = async (content: string | Buffer, name: string, type: string, folderId: string | null = shared) =>
    (await uploadFile(server, owner.token, content, { name, type, folderId: folderId ?? undefined })).body.file.id as string;
  const files = {
    photo: await upload(PNG_BYTES, 'photo.png', 'image/png'),
    page: await upload('<script>alert(1)</script>', 'page.html', 'text/html'),
    notes: await upload('plain notes', 'notes.txt', 'text/plain'),
    bundle: await upload('PK not really a zip', 'bundle.zip', 'application/zip'),
    deep: await upload('deep bytes', 'deep.txt', 'text/plain', inner),
    outside: await upload('outside bytes', 'outside.txt', 'text/plain', null),
  };
  return { owner, shared, inner, files };
}

async function folderLink(token: string, folderId: string, body: Record<string, unknown> = {}) {
  const made = await server.request('POST', `/api/user/folders/${folderId}/share`, { token, body: { shareType: 'public', ...body } });
  expect(made.status).toBe(200);
  return { token: tokenOf(made.body.shareUrl), shareId: made.body.shareId as string, shareUrl: made.body.shareUrl as string };
}

async function fileLink(token: string, fileId: string, body: Record<string, unknown> = {}) {
  const made = await server.request('POST', `/api/files/${fileId}/share`, { token, body });
  expect(made.status).toBe(200);
  return { token: tokenOf(made.body.shareUrl), shareId: made.body.shareId as string, shareUrl: made.body.shareUrl as string };
}

async function listedShare(token: string, shareId: string) {
  const listed = await server.request('GET', '/api/shares', { token });
  return (listed.body.shares as Array<Record<string, unknown>>).find((share) => share.id === shareId);
}

describe('making links with a role', () => {
  it('defaults to view, keeps a role, limit and message, and lists them for the owner', async () => {
    const { owner, shared, files } = await ownerWithTree();
    const plain = await folderLink(owner.token, shared);
    expect(await listedShare(owner.token, plain.shareId)).toMatchObject({ role: 'view', downloadLimit: null, uploadCount: 0 });
    const request = await folderLink(owner.token, shared, { role: 'upload', message: 'Your tax papers, please', downloadLimit: 5 });
    expect(await listedShare(owner.token, request.shareId)).toMatchObject({
      role: 'upload',
      downloadLimit: 5,
      uploadCount: 0,
      message: 'Your tax papers, please',
    });
    const viewOnly = await fileLink(owner.token, files.photo, { role: 'view-only' });
    expect(await listedShare(owner.token, viewOnly.shareId)).toMatchObject({ role: 'view-only', itemType: 'file' });
  });

  it('refuses upload and edit links to a file, a message on a link that takes no files, and an unknown role', async () => {
    const { owner, shared, files } = await ownerWithTree();
    for (const role of ['upload', 'edit']) {
      const refused = await server.request('POST', `/api/files/${files.notes}/share`, { token: owner.token, body: { role } });
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('ROLE_NOT_FOR_FILES');
    }
    const message = await server.request('POST', `/api/user/folders/${shared}/share`, {
      token: owner.token,
      body: { shareType: 'public', role: 'view', message: 'hello' },
    });
    expect(message.status).toBe(400);
    expect(message.body.code).toBe('MESSAGE_NOT_FOR_ROLE');
    const unknown = await server.request('POST', `/api/user/folders/${shared}/share`, {
      token: owner.token,
      body: { shareType: 'public', role: 'owner' },
    });
    expect(unknown.status).toBe(400);
    expect((await server.request('GET', '/api/shares', { token: owner.token })).body.shares).toEqual([]);
  });
});

describe('a view link', () => {
  it('shows, lists, downloads and displays; a link stored without a role is one', async () => {
    const { owner, shared, files } = await ownerWithTree();
    const link = await folderLink(owner.token, shared);
    // The column's default, as a row written without a role has it.
    await server.container.database.db.updateTable('shares').set({ role: 'viewer' }).where('id', '=', link.shareId).execute();
    expect((await visit(link.token)).body).toMatchObject({ type: 'folder', role: 'view', folderId: shared });
    expect((await visit(`${link.token}/items`)).status).toBe(200);
    const download = await visit(`${link.token}/files/${files.notes}/download`);
    expect(download.status).toBe(200);
    expect(download.bytes.toString()).toBe('plain notes');
    expect((await visit(`${link.token}/download`)).status).toBe(200);
    expect((await visit(`${link.token}/files/${files.notes}/view`)).status).toBe(200);
  });
});

describe('a view-only link', () => {
  it('describes, lists and displays, and no download route answers', async () => {
    const { owner, shared, inner, files } = await ownerWithTree();
    const link = await folderLink(owner.token, shared, { role: 'view-only' });
    expect((await visit(link.token)).body).toMatchObject({ type: 'folder', role: 'view-only', folderId: shared });
    const items = await visit(`${link.token}/items?folderId=${inner}`);
    expect(items.status).toBe(200);
    expect(items.body.files.map((file: { originalName: string }) => file.originalName)).toEqual(['deep.txt']);

    for (const path of [
      `${link.token}/download`,
      `${link.token}/files/${files.photo}/download`,
      `${link.token}/files/${files.deep}/download`,
      `${link.token}/files/${files.photo}/download?access=x`,
    ]) {
      const refused = await visit(path);
      expect(refused.status, path).toBe(403);
      expect(refused.body, path).toEqual({ code: 'DOWNLOAD_NOT_ALLOWED', error: 'This link lets you view its files, not download them.' });
    }
    // A thumbnail is part of the listing: not refused for the role (404 until one is made, or 200).
    expect((await visit(`${link.token}/files/${files.photo}/thumbnail?size=small`)).status).not.toBe(403);
    // Outside the shared folder is still not found, whatever the role.
    expect((await visit(`${link.token}/files/${files.outside}/view`)).status).toBe(404);
  });

  it('streams an image inline with safe headers, with Range, and never as a page', async () => {
    const { owner, shared, files } = await ownerWithTree();
    const link = await folderLink(owner.token, shared, { role: 'view-only' });
    const shown = await visit(`${link.token}/files/${files.photo}/view`);
    expect(shown.status).toBe(200);
    expect(shown.bytes.equals(PNG_BYTES)).toBe(true);
    expect(shown.headers.get('content-type')).toBe('image/png');
    expect(shown.headers.get('content-disposition')).toMatch(/^inline; filename="photo.png"/);
    expect(shown.headers.get('x-content-type-options')).toBe('nosniff');
    expect(shown.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(shown.headers.get('cache-control')).toBe('no-store');

    const part = await visit(`${link.token}/files/${files.photo}/view`, { range: 'bytes=8-11' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 8-11/${PNG_BYTES.length}`);
    expect(part.bytes.toString()).toBe('not ');

    // HTML is shown as the characters it is made of, never rendered on our origin.
    const page = await visit(`${link.token}/files/${files.page}/view`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(page.bytes.toString()).toBe('<script>alert(1)</script>');

    // What the viewer cannot show would be a download: refused.
    const bundle = await visit(`${link.token}/files/${files.bundle}/view`);
    expect(bundle.status).toBe(403);
    expect(bundle.body.code).toBe('NOT_VIEWABLE');
  });

  it('on a file link: describe and view answer, download does not', async () => {
    const { owner, files } = await ownerWithTree();
    const link = await fileLink(owner.token, files.notes, { role: 'view-only' });
    expect((await visit(link.token)).body).toMatchObject({ type: 'file', role: 'view-only', name: 'notes.txt' });
    const shown = await visit(`${link.token}/view`);
    expect(shown.status).toBe(200);
    expect(shown.bytes.toString()).toBe('plain notes');
    expect(shown.headers.get('content-disposition')).toMatch(/^inline/);
    expect((await visit(`${link.token}/download`)).body.code).toBe('DOWNLOAD_NOT_ALLOWED');
  });
});

describe('an upload link', () => {
  it("describes the request with the owner's name, message and largest file, and shows nothing inside", async () => {
    const { owner, shared, files } = await ownerWithTree({ firstName: 'Grace' });
    const link = await folderLink(owner.token, shared, { role: 'upload', message: 'Send me the scans' });
    const described = await visit(link.token);
    expect(described.status).toBe(200);
    expect(described.body).toEqual({
      type: 'folder',
      role: 'upload',
      name: 'Shared',
      owner: { firstName: 'Grace' },
      message: 'Send me the scans',
      expiresAt: new Date(server.clock.now().getTime() + 24 * HOUR).toISOString(),
      maxFileSize: FREE_MAX_FILE_SIZE,
    });
    for (const path of [
      `${link.token}/items`,
      `${link.token}/download`,
      `${link.token}/files/${files.notes}/download`,
      `${link.token}/files/${files.notes}/view`,
      `${link.token}/files/${files.photo}/thumbnail?size=small`,
    ]) {
      const refused = await visit(path);
      expect(refused.status, path).toBe(403);
      expect(refused.body, path).toEqual({ code: 'UPLOAD_ONLY_LINK', error: 'This link only receives files: nothing in it can be seen.' });
    }
  });
});

describe('an edit link', () => {
  it('is a view link that also takes files: lists, downloads, and says how large a file may be', async () => {
    const { owner, shared, files } = await ownerWithTree();
    const link = await folderLink(owner.token, shared, { role: 'edit', message: 'Add yours' });
    expect((await visit(link.token)).body).toMatchObject({
      role: 'edit',
      folderId: shared,
      message: 'Add yours',
      maxFileSize: FREE_MAX_FILE_SIZE,
    });
    expect((await visit(`${link.token}/items`)).status).toBe(200);
    expect((await visit(`${link.token}/files/${files.notes}/download`)).bytes.toString()).toBe('plain notes');
    expect((await visit(`${link.token}/download`)).status).toBe(200);
  });
});

describe('download limits', () => {
  it('lets N downloads through, counts a resumed range once, then every route answers 410', async () => {
    const { owner, shared, files } = await ownerWithTree();
    const link = await folderLink(owner.token, shared, { downloadLimit: 3 });
    expect((await visit(`${link.token}/files/${files.notes}/download`)).status).toBe(200);
    // A resumed download is the same download.
    expect((await visit(`${link.token}/files/${files.notes}/download`, { range: 'bytes=3-' })).status).toBe(206);
    expect((await visit(`${link.token}/download`)).status).toBe(200);
    // Displaying sends the bytes too: it counts.
    expect((await visit(`${link.token}/files/${files.photo}/view`)).status).toBe(200);

    const gone = { code: 'DOWNLOAD_LIMIT_REACHED', error: 'This link has reached its download limit' };
    for (const path of [
      link.token,
      `${link.token}/items`,
      `${link.token}/download`,
      `${link.token}/files/${files.notes}/download`,
      `${link.token}/files/${files.notes}/download`,
      `${link.token}/files/${files.photo}/view`,
    ]) {
      const refused = await visit(path);
      expect(refused.status, path).toBe(410);
      expect(refused.body, path).toEqual(gone);
    }
    expect(await listedShare(owner.token, link.shareId)).toMatchObject({ downloadLimit: 3 });
  });

  it('gives the last download to exactly one of many at once', async () => {
    const { owner, files } = await ownerWithTree();
    const link = await fileLink(owner.token, files.notes, { downloadLimit: 1 });
    const answers = await Promise.all(Array.from({ length: 8 }, () => visit(`${link.token}/download`)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 410, 410, 410, 410, 410, 410, 410]);
    expect(answers.find((answer) => answer.status === 200)?.bytes.toString()).toBe('plain notes');
    const [row] = await server.container.database.db.selectFrom('shares').select('download_count').where('id', '=', link.shareId).execute();
    expect(Number(row?.download_count)).toBe(1);
  });

  it('holds across two nodes: of downloads at the last slot through both, exactly one gets through', async () => {
    const { owner, files } = await ownerWithTree();
    const link = await fileLink(owner.token, files.notes, { downloadLimit: 2 });
    const other = await server.startNode();
    try {
      const nodes = [server.url, other.url];
      expect((await fetch(`${other.url}/api/public/shares/${link.token}/download`)).status).toBe(200);
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, index) => fetch(`${nodes[index % 2]}/api/public/shares/${link.token}/download`)),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 410, 410, 410, 410, 410, 410, 410]);
      await Promise.all(answers.map((answer) => answer.arrayBuffer()));
      // The other node knows the limit is reached from the database alone.
      expect((await fetch(`${other.url}/api/public/shares/${link.token}`)).status).toBe(410);
    } finally {
      await other.close();
    }
  });
});

describe('changing a link in place', () => {
  it('changes its role, limit and message while its address stays', async () => {
    const { owner, shared, files } = await ownerWithTree();
    const link = await folderLink(owner.token, shared);
    const patch = (body: Record<string, unknown>) => server.request('PATCH', `/api/shares/${link.shareId}`, { token: owner.token, body });

    const viewOnly = await patch({ role: 'view-only' });
    expect(viewOnly.status).toBe(200);
    expect(viewOnly.body.share).toMatchObject({ id: link.shareId, shareUrl: link.shareUrl, role: 'view-only' });
    expect((await visit(`${link.token}/files/${files.notes}/download`)).body.code).toBe('DOWNLOAD_NOT_ALLOWED');

    const upload = await patch({ role: 'upload', message: 'Drop here' });
    expect(upload.body.share).toMatchObject({ shareUrl: link.shareUrl, role: 'upload', message: 'Drop here' });
    expect((await visit(link.token)).body).toMatchObject({ role: 'upload', message: 'Drop here' });
    expect((await visit(`${link.token}/items`)).body.code).toBe('UPLOAD_ONLY_LINK');

    // Back to view: the message goes, as no page of a view link shows it.
    const back = await patch({ role: 'view', downloadLimit: 1 });
    expect(back.body.share).toMatchObject({ role: 'view', downloadLimit: 1 });
    expect(back.body.share.message).toBeUndefined();
    expect((await visit(`${link.token}/download`)).status).toBe(200);
    expect((await visit(link.token)).status).toBe(410);
    // Raising the limit opens the link again; none opens it for good.
    expect((await patch({ downloadLimit: 2 })).status).toBe(200);
    expect((await visit(`${link.token}/download`)).status).toBe(200);
    expect((await visit(link.token)).status).toBe(410);
    expect((await patch({ downloadLimit: null })).body.share.downloadLimit).toBeNull();
    expect((await visit(link.token)).status).toBe(200);
    // Lowering it under the downloads already made closes it at once.
    await patch({ downloadLimit: 1 });
    expect((await visit(link.token)).body.code).toBe('DOWNLOAD_LIMIT_REACHED');

    expect(await listedShare(owner.token, link.shareId)).toMatchObject({ shareUrl: link.shareUrl, role: 'view', downloadLimit: 1 });
  });

  it('moves its expiry within the plan, and reopens an expired link', async () => {
    const { owner, files } = await ownerWithTree();
    const link = await fileLink(owner.token, files.notes, { expiresIn: 1 });
    const patch = (body: Record<string, unknown>) => server.request('PATCH', `/api/shares/${link.shareId}`, { token: owner.token, body });
    server.clock.advance(2 * HOUR);
    expect((await visit(link.token)).body.code).toBe('SHARE_EXPIRED');

    const later = new Date(server.clock.now().getTime() + 5 * HOUR).toISOString();
    const moved = await patch({ expiresAt: later });
    expect(moved.status).toBe(200);
    expect(moved.body.share).toMatchObject({ expiresAt: later, shareUrl: link.shareUrl });
    expect((await visit(link.token)).status).toBe(200);

    const longest = await patch({ expiresAt: null });
    expect(longest.body.share.expiresAt).toBe(new Date(server.clock.now().getTime() + 24 * HOUR).toISOString());

    const past = await patch({ expiresAt: new Date(server.clock.now().getTime() - 1000).toISOString() });
    expect(past.status).toBe(400);
    expect(past.body.code).toBe('EXPIRY_IN_PAST');
    const tooLong = await patch({ expiresAt: new Date(server.clock.now().getTime() + 25 * HOUR).toISOString() });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({ code: 'EXPIRY_TOO_LONG', error: 'Links on the Free plan last at most 24 hours.' });
    const notADate = await patch({ expiresAt: 'tomorrow' });
    expect(notADate.status).toBe(400);
    // A refused change changed nothing.
    expect(await listedShare(owner.token, link.shareId)).toMatchObject({ expiresAt: longest.body.share.expiresAt });
  });

  it('sets and removes a password where the plan has them', async () => {
    const { owner, shared } = await ownerWithTree();
    const link = await folderLink(owner.token, shared);
    const patch = (body: Record<string, unknown>) => server.request('PATCH', `/api/shares/${link.shareId}`, { token: owner.token, body });
    const free = await patch({ password: 'open sesame' });
    expect(free.status).toBe(400);
    expect(free.body.code).toBe('PASSWORD_LINKS_NOT_IN_PLAN');

    await subscribe(server, owner.token, 'PRO');
    const locked = await patch({ password: 'open sesame' });
    expect(locked.body.share).toMatchObject({ passwordProtected: true, shareUrl: link.shareUrl });
    expect((await visit(link.token)).status).toBe(401);
    const unlocked = await server.request('POST', `/api/public/shares/${link.token}/access`, { body: { password: 'open sesame' } });
    expect(unlocked.status).toBe(200);
    const pass = { 'x-share-access': unlocked.body.accessToken as string };
    expect((await visit(link.token, pass)).status).toBe(200);
    // A new password closes the link to passes given for the old one.
    expect((await patch({ password: 'new sesame' })).status).toBe(200);
    expect((await visit(link.token, pass)).status).toBe(401);
    expect((await patch({ password: null })).body.share.passwordProtected).toBe(false);
    expect((await visit(link.token)).status).toBe(200);
  });

  it("refuses another user's share, a revoked one, and settings of the other kind of share", async () => {
    const { owner, shared, files } = await ownerWithTree();
    const stranger = await createUser(server);
    const link = await folderLink(owner.token, shared);
    const theirs = await server.request('PATCH', `/api/shares/${link.shareId}`, { token: stranger.token, body: { role: 'edit' } });
    expect(theirs.status).toBe(404);
    expect(theirs.body.code).toBe('SHARE_NOT_FOUND');
    expect((await visit(link.token)).body.role).toBe('view');

    const patch = (body: Record<string, unknown>) => server.request('PATCH', `/api/shares/${link.shareId}`, { token: owner.token, body });
    expect((await patch({ role: 'editor' })).body.code).toBe('ROLE_NOT_FOR_SHARE');
    expect((await patch({ mayReshare: true })).body.code).toBe('SETTING_NOT_FOR_SHARE');
    expect((await patch({ message: 'hi' })).body.code).toBe('MESSAGE_NOT_FOR_ROLE');
    expect((await patch({})).status).toBe(400);
    expect((await patch({ shareUrl: 'elsewhere' })).status).toBe(400);

    const onFile = await fileLink(owner.token, files.notes);
    const fileRole = await server.request('PATCH', `/api/shares/${onFile.shareId}`, { token: owner.token, body: { role: 'upload' } });
    expect(fileRole.body.code).toBe('ROLE_NOT_FOR_FILES');

    expect((await server.request('DELETE', `/api/shares/${link.shareId}`, { token: owner.token })).status).toBe(204);
    expect((await patch({ role: 'edit' })).status).toBe(404);
  });

  it("changes a person's role and right to share further", async () => {
    const owner = await createVerifiedUser(server);
    const member = await createVerifiedUser(server);
    const folder = (await createFolder(server, owner.token, 'Family')).id;
    const made = await server.request('POST', `/api/user/folders/${folder}/share`, {
      token: owner.token,
      body: { shareType: 'private', email: member.email },
    });
    expect(made.status).toBe(200);
    const shareId = made.body.share.id as string;
    const patch = (body: Record<string, unknown>) => server.request('PATCH', `/api/shares/${shareId}`, { token: owner.token, body });
    const editor = await patch({ role: 'editor', mayReshare: true });
    expect(editor.status).toBe(200);
    expect(editor.body.share).toMatchObject({ id: shareId, email: member.email, role: 'editor', mayReshare: true });
    const sharedWithMember = await server.request('GET', '/api/shared-with-me', { token: member.token });
    expect(sharedWithMember.body.folders).toMatchObject([{ id: folder, role: 'editor', mayReshare: true }]);
    expect((await patch({ role: 'view' })).body.code).toBe('ROLE_NOT_FOR_SHARE');
    expect((await patch({ downloadLimit: 3 })).body.code).toBe('SETTING_NOT_FOR_SHARE');
    expect((await patch({ role: 'viewer' })).body.share).toMatchObject({ role: 'viewer', mayReshare: true });
  });
});

describe('links with downloads straight from S3', () => {
  let s3: TestServer;
  beforeAll(async () => {
    // s3rver compares a URL's signing time with the real time: the test clock starts there.
    s3 = await startTestServer({ storage: 's3', env: { S3_PRESIGNED_DOWNLOADS: 'true' }, clockStart: new Date() });
  });
  afterAll(() => s3.close());

  const get = (path: string) => fetch(`${s3.url}/api/public/shares/${path}`, { redirect: 'manual' });

  it('never sends a view-only link to the bucket, and counts a redirected download against the limit', async () => {
    const owner = await createUser(s3);
    const folder = (await createFolder(s3, owner.token, 'Shown')).id;
    const file = (await uploadFile(s3, owner.token, PNG_BYTES, { name: 'photo.png', type: 'image/png', folderId: folder })).body.file
      .id as string;
    const share = (body: Record<string, unknown>) =>
      s3.request('POST', `/api/user/folders/${folder}/share`, { token: owner.token, body: { shareType: 'public', ...body } });

    const viewOnly = tokenOf((await share({ role: 'view-only' })).body.shareUrl);
    const refused = await get(`${viewOnly}/files/${file}/download`);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('location')).toBeNull();
    const shown = await get(`${viewOnly}/files/${file}/view`);
    expect(shown.status).toBe(200);
    expect(Buffer.from(await shown.arrayBuffer()).equals(PNG_BYTES)).toBe(true);
    expect(shown.headers.get('content-disposition')).toMatch(/^inline/);

    const limited = tokenOf((await share({ downloadLimit: 1 })).body.shareUrl);
    const first = await get(`${limited}/files/${file}/download`);
    expect(first.status).toBe(302);
    const second = await get(`${limited}/files/${file}/download`);
    expect(second.status).toBe(410);
    expect(second.headers.get('location')).toBeNull();
    expect(((await second.json()) as { code: string }).code).toBe('DOWNLOAD_LIMIT_REACHED');
  });
});
