/**
 * The remote mirror against a real server: a first listing, then the change feed carrying
 * renames, moves, deletions, restores and shares into the same snapshot a fresh listing gives;
 * an unchanged drive costs one feed request; an expired cursor lists everything again.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, ApiRequest } from '../src/remote/api-client.ts';
import { RemoteError } from '../src/remote/remote-error.ts';
import { copyFile, deleteItem, makeFolder, moveItem } from '../src/remote/remote-ops.ts';
import { followChanges, type FeedEvent } from '../src/remote/feed-follower.ts';
import { ensureRemoteRoot, mirrorCursor, refreshMirror, remoteSnapshot, type RemoteRoot } from '../src/remote/remote-mirror.ts';
import { waitFor } from '../../server/test/helpers/wait-for.ts';
import * as remote from './remote-helpers.ts';

let server: remote.ServerProcess;

beforeAll(async () => {
  server = await remote.startServer();
});
afterAll(async () => {
  await server?.stop();
});

/** An API client that counts the requests it sends, and can be told to refuse some itself. */
function countingClient(inner: ApiClient, refuse?: (request: ApiRequest) => RemoteError | undefined) {
  const paths: string[] = [];
  const client: ApiClient = {
    server: inner.server,
    device: inner.device,
    async request(request) {
      paths.push(request.path);
      const refusal = refuse?.(request);
      if (refusal !== undefined) throw refusal;
      return inner.request(request);
    },
    async json<T>(request: ApiRequest) {
      return (await (await client.request(request)).json()) as T;
    },
  };
  return { client, paths };
}

const signedInUser = (overrides: { firstName?: string; lastName?: string } = {}) => remote.signedInUser(server, overrides);
const call = <T = any>(token: string, method: string, route: string, body?: unknown) => remote.call<T>(server, token, method, route, body);
const upload = (token: string, name: string, content: string, folderId: string | null = null, conflict?: 'replace') =>
  remote.upload(server, token, name, content, folderId, conflict);
const folder = (token: string, name: string, parentId: string | null = null) => remote.folder(server, token, name, parentId);

/** The snapshot as `path -> kind[:hash prefix] role`, easy to read in a failure. */
function described(db: Database.Database, root: RemoteRoot): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, entry] of remoteSnapshot(db, root))
    out[path] = `${entry.kind}${entry.hash ? `:${entry.hash.slice(0, 8)}` : ''} ${entry.role}`;
  return out;
}

/** What a fresh mirror (a full listing) sees now: the feed must have brought the old one to the same. */
async function freshListing(api: ApiClient, root: RemoteRoot) {
  const db = new Database(':memory:');
  await refreshMirror(db, api, root);
  return described(db, root);
}

const ROOT: RemoteRoot = { path: '/', folderId: null };

describe('the remote mirror', () => {
  it('lists the drive once, then follows renames, moves, deletions and restores through the feed', async () => {
    const user = await signedInUser();
    const docs = await folder(user.token, 'Docs');
    const work = await folder(user.token, 'Work', docs);
    const reportId = await upload(user.token, 'report.txt', 'first draft', work);
    await upload(user.token, 'top.txt', 'top');

    const db = new Database(':memory:');
    const first = await refreshMirror(db, user.api, ROOT);
    expect(first.fullListing).toBe(true);
    expect(Object.keys(described(db, ROOT)).sort()).toEqual(['Docs', 'Docs/Work', 'Docs/Work/report.txt', 'top.txt']);
    expect(remoteSnapshot(db, ROOT).get('Docs/Work/report.txt')).toMatchObject({ id: reportId, size: 11, kind: 'file', role: 'owner' });

    const counted = countingClient(user.api);
    const unchanged = await refreshMirror(db, counted.client, ROOT);
    expect(unchanged).toMatchObject({ fullListing: false, changes: 0 });
    expect(counted.paths).toEqual(['/api/changes']);

    // Rename and move a folder with contents, rename a file, replace a file's content.
    const archive = await folder(user.token, 'Archive');
    await call(user.token, 'PATCH', `/api/user/folders/${work}`, { name: 'Work 2026', parentId: archive });
    await call(user.token, 'PATCH', `/api/files/${reportId}`, { name: 'final.txt' });
    const topFile = await upload(user.token, 'top.txt', 'top, second version', null, 'replace');
    // A folder with contents goes to Trash and comes back; another goes for good.
    const photos = await folder(user.token, 'Photos');
    await upload(user.token, 'beach.jpg', 'sand', photos);
    await call(user.token, 'DELETE', `/api/user/folders/${photos}`);
    await call(user.token, 'DELETE', `/api/user/folders/${docs}`);
    await call(user.token, 'POST', '/api/trash/restore', { type: 'folder', id: photos });

    const followed = await refreshMirror(db, user.api, ROOT);
    expect(followed.fullListing).toBe(false);
    expect(described(db, ROOT)).toEqual(await freshListing(user.api, ROOT));
    expect(Object.keys(described(db, ROOT)).sort()).toEqual([
      'Archive',
      'Archive/Work 2026',
      'Archive/Work 2026/final.txt',
      'Photos',
      'Photos/beach.jpg',
      'top.txt',
    ]);
    expect(remoteSnapshot(db, ROOT).get('top.txt')).toMatchObject({ id: topFile, size: 19 });
  });

  it('keeps what others share under Shared with me, named as WebDAV names them, with their roles', async () => {
    const me = await signedInUser();
    const ann = await signedInUser({ firstName: 'Ann', lastName: 'Lee' });
    const bob = await signedInUser({ firstName: 'Bob', lastName: 'Ray' });
    await folder(me.token, 'Shared with me');
    const db = new Database(':memory:');
    await refreshMirror(db, me.api, ROOT);
    expect(Object.keys(described(db, ROOT))).toEqual(['Shared with me (My Files)']);

    // Two shares named Photos (their owners' last names are hidden by default) (one viewer, one editor) and one made after the first listing.
    const annPhotos = await folder(ann.token, 'Photos');
    await upload(ann.token, 'a.jpg', 'ann', annPhotos);
    await call(ann.token, 'POST', `/api/user/folders/${annPhotos}/share`, { shareType: 'private', email: me.email, role: 'viewer' });
    const bobPhotos = await folder(bob.token, 'photos');
    const bobInner = await folder(bob.token, 'Inner', bobPhotos);
    await upload(bob.token, 'b.jpg', 'bob', bobInner);
    await call(bob.token, 'POST', `/api/user/folders/${bobPhotos}/share`, { shareType: 'private', email: me.email, role: 'editor' });

    await refreshMirror(db, me.api, ROOT);
    expect(described(db, ROOT)).toEqual(await freshListing(me.api, ROOT));
    const snapshot = remoteSnapshot(db, ROOT);
    expect([...snapshot.keys()].sort()).toEqual([
      'Shared with me',
      'Shared with me (My Files)',
      'Shared with me/Photos (Ann)',
      'Shared with me/Photos (Ann)/a.jpg',
      'Shared with me/photos (Bob)',
      'Shared with me/photos (Bob)/Inner',
      'Shared with me/photos (Bob)/Inner/b.jpg',
    ]);
    expect(snapshot.get('Shared with me/Photos (Ann)/a.jpg')?.role).toBe('viewer');
    expect(snapshot.get('Shared with me/photos (Bob)/Inner/b.jpg')?.role).toBe('editor');

    // The owner works inside a share; a share is revoked.
    await upload(bob.token, 'c.jpg', 'more', bobInner);
    await call(bob.token, 'PATCH', `/api/user/folders/${bobInner}`, { name: 'Renamed' });
    const shares = await call<{ shares: Array<{ id: string; itemId: string }> }>(ann.token, 'GET', '/api/shares');
    await call(ann.token, 'DELETE', `/api/shares/${shares.shares.find((share) => share.itemId === annPhotos)?.id}`);

    await refreshMirror(db, me.api, ROOT);
    expect(described(db, ROOT)).toEqual(await freshListing(me.api, ROOT));
    expect([...remoteSnapshot(db, ROOT).keys()].sort()).toEqual([
      'Shared with me',
      'Shared with me (My Files)',
      'Shared with me/photos',
      'Shared with me/photos/Renamed',
      'Shared with me/photos/Renamed/b.jpg',
      'Shared with me/photos/Renamed/c.jpg',
    ]);
  });

  it('syncs a sub-folder given as --remote, made when missing, follows a folder moved into it, and stops while it is in Trash', async () => {
    const user = await signedInUser();
    const root = await ensureRemoteRoot(user.api, '/Work/Docs');
    expect(root.folderId).not.toBeNull();
    expect(await ensureRemoteRoot(user.api, 'Work/Docs/')).toEqual(root);
    await upload(user.token, 'inside.txt', 'in', root.folderId);
    const outside = await folder(user.token, 'Outside');
    await upload(user.token, 'moved-in.txt', 'later in', outside);

    const db = new Database(':memory:');
    await refreshMirror(db, user.api, root);
    expect(Object.keys(described(db, root))).toEqual(['inside.txt']);

    await call(user.token, 'PATCH', `/api/user/folders/${outside}`, { parentId: root.folderId });
    await refreshMirror(db, user.api, root);
    expect(Object.keys(described(db, root)).sort()).toEqual(['Outside', 'Outside/moved-in.txt', 'inside.txt']);

    // The synced folder goes to Trash: the mirror refuses to go on (emptying the local folder is not the answer), until it is back.
    await call(user.token, 'DELETE', `/api/user/folders/${root.folderId}`);
    await expect(refreshMirror(db, user.api, root)).rejects.toMatchObject({ code: 'REMOTE_ROOT_GONE' });
    expect(Object.keys(described(db, root))).toHaveLength(3);
    await call(user.token, 'POST', '/api/trash/restore', { type: 'folder', id: root.folderId });
    await refreshMirror(db, user.api, root);
    expect(Object.keys(described(db, root)).sort()).toEqual(['Outside', 'Outside/moved-in.txt', 'inside.txt']);
  });

  it('lists everything again when the feed says the cursor expired', async () => {
    const user = await signedInUser();
    const db = new Database(':memory:');
    await refreshMirror(db, user.api, ROOT);
    await upload(user.token, 'new.txt', 'new');
    let expire = true;
    const counted = countingClient(user.api, (request) => {
      if (request.path !== '/api/changes' || !expire) return undefined;
      expire = false;
      return new RemoteError(410, 'CURSOR_EXPIRED', 'The cursor expired (the test says so)');
    });
    const outcome = await refreshMirror(db, counted.client, ROOT);
    expect(outcome.fullListing).toBe(true);
    expect(counted.paths).toEqual(['/api/changes', '/api/sync/tree', '/api/shared-with-me']);
    expect(Object.keys(described(db, ROOT))).toEqual(['new.txt']);
  });

  it('is woken by the change stream when the drive changes, from the cursor the mirror is at', async () => {
    const user = await signedInUser();
    const db = new Database(':memory:');
    await refreshMirror(db, user.api, ROOT);
    const events: FeedEvent[] = [];
    const stop = new AbortController();
    const following = followChanges(user.api, mirrorCursor(db) as string, (event) => events.push(event), stop.signal);
    try {
      const id = await upload(user.token, 'woken.txt', 'hello');
      await waitFor('the stream to carry the upload', async () =>
        events.some((event) => event.type === 'changes' && event.page.changes.some((change) => change.id === id)),
      );
    } finally {
      stop.abort();
    }
    expect(await following).toBe('aborted');
    await refreshMirror(db, user.api, ROOT);
    expect(Object.keys(described(db, ROOT))).toEqual(['woken.txt']);
  });

  it('makes, moves, copies and deletes the way a pass cut short can redo them', async () => {
    const user = await signedInUser();
    const made = await makeFolder(user.api, null, 'Äpfel');
    // Made again after a crash (any case, any Unicode form): the same folder.
    expect(await makeFolder(user.api, null, 'a\u0308pfel')).toBe(made);
    const fileId = await upload(user.token, 'notes.txt', 'notes');
    await upload(user.token, 'taken.txt', 'other', made);
    await expect(moveItem(user.api, 'file', fileId, { name: 'taken.txt', parentId: made })).rejects.toMatchObject({
      status: 409,
      code: 'NAME_TAKEN',
    });
    await moveItem(user.api, 'file', fileId, { name: 'moved.txt', parentId: made });
    const copy = await copyFile(user.api, fileId, null, 'copy.txt');
    expect(copy.originalName).toBe('copy.txt');
    await expect(copyFile(user.api, fileId, made, 'taken.txt')).rejects.toMatchObject({ code: 'NAME_TAKEN' });
    await deleteItem(user.api, 'folder', made);
    await deleteItem(user.api, 'folder', made);
    const db = new Database(':memory:');
    await refreshMirror(db, user.api, ROOT);
    expect(Object.keys(described(db, ROOT))).toEqual(['copy.txt']);
  });
});
