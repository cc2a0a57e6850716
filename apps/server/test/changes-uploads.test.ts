import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Change } from '@cloudvault/contract/changes';
import type { FileItem } from '@cloudvault/contract/files';
import { createUser } from '@cloudvault/test-support/accounts';
import { changesMadeBy } from '@cloudvault/test-support/changes';
import { subscribe } from '@cloudvault/test-support/checkout';
import { createFile, createFolder, listFiles } from '@cloudvault/test-support/drive';
import { davClientFor } from './helpers/dav-requests.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { tusUpload } from './helpers/tus-upload.ts';

/**
 * What the upload paths, new content, versions and file renames and moves write to the
 * owner's change feed (docs/api.md#change-feed): one test per path, each proving the
 * entries, their order and the file's state after the change as the API then lists it.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const sha256 = (bytes: string) => createHash('sha256').update(bytes).digest('hex');

/** A user on Free (no versions) or on Premium (versions kept). */
async function userOn(plan: 'FREE' | 'PREMIUM' = 'FREE') {
  const user = await createUser(server);
  if (plan !== 'FREE') await subscribe(server, user.token, plan);
  return user;
}

/** The feed's entry for a file as the API lists it now, holding `bytes`. */
function entry(op: Change['op'], file: FileItem, bytes: string): Change {
  return {
    op,
    kind: 'file',
    id: file.id,
    parentId: file.folderId,
    name: file.originalName,
    at: expect.any(String),
    size: Buffer.byteLength(bytes),
    contentHash: sha256(bytes),
    modifiedAt: file.updatedAt,
  };
}

/** The feed's entry for a file gone from the tree: where it was, and its name. */
const gone = (file: FileItem): Change => ({
  op: 'deleted',
  kind: 'file',
  id: file.id,
  parentId: file.folderId,
  name: file.originalName,
  at: expect.any(String),
});

/** The live file of this name in the folder, as the API lists it. */
async function listed(token: string, name: string, folderId: string | null = null): Promise<FileItem> {
  const file = (await listFiles(server, token, folderId)).find((candidate) => candidate.originalName === name);
  if (!file) throw new Error(`${name} is not listed`);
  return file;
}

/** A multipart upload with the `conflict` field before the file, as the web app sends it. */
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
  return { status: response.status, body: (await response.json()) as { file: FileItem; code?: string } };
}

const patchFile = (token: string, id: string, body: object) => server.request('PATCH', `/api/files/${id}`, { token, body });

describe('uploads in the change feed', () => {
  it('a multipart upload is `created` with its folder, name, size, hash and time', async () => {
    const { token } = await userOn();
    const folder = await createFolder(server, token, 'Reports');
    let file!: FileItem;
    const changes = await changesMadeBy(server, token, async () => {
      file = await createFile(server, token, 'quarter one', { name: 'q1.txt', folderId: folder.id });
    });
    expect(file).toMatchObject({ folderId: folder.id, originalName: 'q1.txt' });
    expect(changes).toEqual([entry('created', file, 'quarter one')]);
  });

  it('a tus upload is `created` like any other', async () => {
    const { token } = await userOn();
    const filePath = path.join(os.tmpdir(), `cloudvault-changes-tus-${process.pid}-${Date.now()}.txt`);
    await writeFile(filePath, 'resumable bytes');
    let fileId: string | undefined;
    const changes = await changesMadeBy(server, token, async () => {
      ({ fileId } = await tusUpload({ origin: server.url, token, filePath, metadata: { filename: 'tus.txt' }, retryDelays: [] }));
    });
    const file = await listed(token, 'tus.txt');
    expect(file.id).toBe(fileId);
    expect(changes).toEqual([entry('created', file, 'resumable bytes')]);
  });

  it.each(['FREE', 'PREMIUM'] as const)(
    'a WebDAV PUT is `created`, and a PUT over it `updated` with the new content (%s)',
    async (plan) => {
      const user = await userOn(plan);
      const dav = await davClientFor(server, user);
      const docs = await createFolder(server, user.token, 'Docs');
      const created = await changesMadeBy(server, user.token, async () => {
        expect((await dav('PUT', '/dav/Docs/notes.txt', { body: 'first' })).status).toBe(201);
      });
      const first = await listed(user.token, 'notes.txt', docs.id);
      expect(created).toEqual([entry('created', first, 'first')]);

      const updated = await changesMadeBy(server, user.token, async () => {
        expect((await dav('PUT', '/dav/Docs/notes.txt', { body: 'second draft' })).status).toBe(204);
      });
      const second = await listed(user.token, 'notes.txt', docs.id);
      expect(second.id).toBe(first.id);
      expect(updated).toEqual([entry('updated', second, 'second draft')]);
    },
  );

  it('conflict=replace with versions is the file’s `updated`; keep-both a new file’s `created`', async () => {
    const { token } = await userOn('PREMIUM');
    const old = await createFile(server, token, 'old', { name: 'report.pdf' });
    let replaced!: FileItem;
    const replacing = await changesMadeBy(server, token, async () => {
      const answer = await upload(token, 'newer bytes', 'report.pdf', { conflict: 'replace' });
      expect(answer.status).toBe(201);
      replaced = answer.body.file;
    });
    expect(replaced.id).toBe(old.id);
    expect(replacing).toEqual([entry('updated', replaced, 'newer bytes')]);

    let both!: FileItem;
    const keepingBoth = await changesMadeBy(server, token, async () => {
      both = (await upload(token, 'beside', 'report.pdf', { conflict: 'keep-both' })).body.file;
    });
    expect(both.originalName).toBe('report (1).pdf');
    expect(keepingBoth).toEqual([entry('created', both, 'beside')]);
  });

  it('conflict=replace without versions is the old file’s `deleted` (to Trash), then the new one’s `created`', async () => {
    const { token } = await userOn('FREE');
    const folder = await createFolder(server, token, 'Invoices');
    const old = await createFile(server, token, 'old', { name: 'march.pdf', folderId: folder.id });
    let replacement!: FileItem;
    const changes = await changesMadeBy(server, token, async () => {
      const answer = await upload(token, 'the new march', 'march.pdf', { conflict: 'replace', folderId: folder.id });
      expect(answer.status).toBe(201);
      replacement = answer.body.file;
    });
    expect(replacement.id).not.toBe(old.id);
    expect(changes).toEqual([gone(old), entry('created', replacement, 'the new march')]);
  });

  /** A multipart upload of "refused" as a.txt with conflict=replace, refused once the file is stored and listed: a field follows it. */
  async function uploadRefusedAfterListing(token: string): Promise<void> {
    const boundary = 'b0undary';
    const body = [
      `--${boundary}\r\nContent-Disposition: form-data; name="conflict"\r\n\r\nreplace\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nrefused\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="folderId"\r\n\r\nnull\r\n--${boundary}--\r\n`,
    ].join('');
    const answer = await fetch(`${server.url}/api/files/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(answer.status).toBe(400);
  }

  it('an upload refused after it was listed is `deleted` again, and a file it replaced `restored` (no versions)', async () => {
    const { token } = await userOn('FREE');
    const old = await createFile(server, token, 'kept', { name: 'a.txt' });
    const changes = await changesMadeBy(server, token, () => uploadRefusedAfterListing(token));
    expect(await listFiles(server, token)).toEqual([old]);
    const refusedId = changes[1]?.id;
    expect(refusedId).not.toBe(old.id);
    expect(changes).toEqual([
      gone(old),
      { ...entry('created', { ...old, id: refusedId as string }, 'refused'), modifiedAt: expect.any(String) },
      { ...gone(old), id: refusedId },
      entry('restored', old, 'kept'),
    ]);
  });

  it('an upload refused after it gave a file new bytes is `updated` twice: the new bytes, then the old ones back (versions)', async () => {
    const { token } = await userOn('PREMIUM');
    const old = await createFile(server, token, 'kept', { name: 'a.txt' });
    const changes = await changesMadeBy(server, token, () => uploadRefusedAfterListing(token));
    expect(await listFiles(server, token)).toEqual([old]);
    expect(changes).toEqual([{ ...entry('updated', old, 'refused'), modifiedAt: expect.any(String) }, entry('updated', old, 'kept')]);
  });

  it('a failed upload or rename records nothing: conflict=fail and a rename onto a taken name answer 409', async () => {
    const { token } = await userOn();
    await createFile(server, token, 'taken', { name: 'taken.txt' });
    const other = await createFile(server, token, 'other', { name: 'other.txt' });
    const changes = await changesMadeBy(server, token, async () => {
      expect((await upload(token, 'again', 'taken.txt', { conflict: 'fail' })).status).toBe(409);
      expect((await patchFile(token, other.id, { name: 'TAKEN.txt' })).status).toBe(409);
    });
    expect(changes).toEqual([]);
  });
});

describe('versions in the change feed', () => {
  it('restoring a version is the file’s `updated` with the restored size and hash', async () => {
    const { token } = await userOn('PREMIUM');
    const file = await createFile(server, token, 'version one', { name: 'plan.txt' });
    await upload(token, 'version two, longer', 'plan.txt', { conflict: 'replace' });
    const versions = (await server.request('GET', `/api/files/${file.id}/versions`, { token })).body.versions as Array<{ id: string }>;
    expect(versions).toHaveLength(1);
    let restored!: FileItem;
    const changes = await changesMadeBy(server, token, async () => {
      const answer = await server.request('POST', `/api/files/${file.id}/versions/${versions[0]!.id}/restore`, { token });
      expect(answer.status).toBe(200);
      restored = answer.body.file;
    });
    expect(restored).toMatchObject({ id: file.id, size: 'version one'.length });
    expect(changes).toEqual([entry('updated', await listed(token, 'plan.txt'), 'version one')]);
  });
});

describe('renames and moves in the change feed', () => {
  it('a rename is `moved` in the same folder, with the new name', async () => {
    const { token } = await userOn();
    const folder = await createFolder(server, token, 'Drafts');
    const file = await createFile(server, token, 'draft', { name: 'draft.txt', folderId: folder.id });
    const changes = await changesMadeBy(server, token, async () => {
      expect((await patchFile(token, file.id, { name: 'final.txt' })).status).toBe(200);
    });
    const renamed = await listed(token, 'final.txt', folder.id);
    expect(renamed.id).toBe(file.id);
    expect(changes).toEqual([entry('moved', renamed, 'draft')]);
  });

  it('a move is `moved` into the folder, and back to the top level', async () => {
    const { token } = await userOn();
    const folder = await createFolder(server, token, 'Archive');
    const file = await createFile(server, token, 'bytes', { name: 'old.txt' });
    const into = await changesMadeBy(server, token, async () => {
      expect((await patchFile(token, file.id, { folderId: folder.id })).status).toBe(200);
    });
    expect(into).toEqual([entry('moved', await listed(token, 'old.txt', folder.id), 'bytes')]);
    expect(into[0]!.parentId).toBe(folder.id);

    const back = await changesMadeBy(server, token, async () => {
      expect((await patchFile(token, file.id, { folderId: null })).status).toBe(200);
    });
    expect(back).toEqual([entry('moved', await listed(token, 'old.txt'), 'bytes')]);
    expect(back[0]!.parentId).toBeNull();
  });

  it('a move with conflict=replace is the file there’s `deleted`, then the moved file’s `moved`', async () => {
    const { token } = await userOn();
    const folder = await createFolder(server, token, 'Docs');
    const there = await createFile(server, token, 'there', { name: 'a.txt', folderId: folder.id });
    const moving = await createFile(server, token, 'moving', { name: 'a.txt' });
    const changes = await changesMadeBy(server, token, async () => {
      expect((await patchFile(token, moving.id, { folderId: folder.id, conflict: 'replace' })).status).toBe(200);
    });
    expect(changes).toEqual([gone(there), entry('moved', await listed(token, 'a.txt', folder.id), 'moving')]);
  });

  it('a WebDAV MOVE of a file is `moved` to its new folder and name, then `updated` with the modification time MOVE keeps', async () => {
    const user = await userOn();
    const dav = await davClientFor(server, user);
    const folder = await createFolder(server, user.token, 'Inbox');
    const file = await createFile(server, user.token, 'over dav', { name: 'a.txt' });
    const changes = await changesMadeBy(server, user.token, async () => {
      expect((await dav('MOVE', '/dav/a.txt', { headers: { destination: '/dav/Inbox/b.txt' } })).status).toBe(201);
    });
    const moved = await listed(user.token, 'b.txt', folder.id);
    expect(moved.id).toBe(file.id);
    // The listing's time is the one before the move (WebDAV keeps it), and so is the feed's last word.
    expect(moved.updatedAt).toBe(file.updatedAt);
    expect(changes).toEqual([
      { ...entry('moved', moved, 'over dav'), modifiedAt: expect.any(String) },
      { ...entry('updated', moved, 'over dav'), modifiedAt: file.updatedAt },
    ]);
  });
});
