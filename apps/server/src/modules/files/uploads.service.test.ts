import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type BlobStore, BlobTooLargeError } from '../../adapters/blob-store/blob-store.ts';
import { AppError, insufficientStorage } from '../../lib/errors.ts';
import type { PlanCatalogue, PlanEntry } from '../plans/plans.catalogue.ts';
import type { FileRow } from './files.repository.ts';
import {
  createUploadsService,
  folderIdOf,
  MULTIPART_OVERHEAD,
  nameConflictOf,
  type ReceiveInput,
  type UploadsServiceDeps,
} from './uploads.service.ts';
import { refusal } from '../../lib/refusal.testing.ts';

const MiB = 1024 * 1024;
const FREE = {
  id: 'FREE',
  name: 'Free',
  storageLimit: 10 * MiB,
  maxFileSize: MiB,
  maxConcurrentUploads: 3,
  capabilities: { versioning: false },
} as unknown as PlanEntry;
const VERSIONED = { ...FREE, id: 'PREMIUM', name: 'Business', capabilities: { versioning: true } } as unknown as PlanEntry;

/**
 * The use-case over fakes of its narrow dependencies: reservations, the files repository and
 * the blob store share one in-memory account, so a test sees what an outcome left behind.
 */
function setUp(plan: PlanEntry = FREE) {
  const state = {
    storageUsed: 0,
    reservations: new Map<string, { bytes: number; blobKey: string }>(),
    blobs: new Map<string, Buffer>(),
    files: [] as FileRow[],
    versions: [] as Array<{ id: string; fileId: string; blobKey: string; size: number }>,
    reactions: [] as string[],
    /** Whose quota each reservation held, whose drive each reaction was for, and the shared folders' activity. */
    heldFor: [] as string[],
    reactedFor: [] as string[],
    folderActivity: [] as Array<{ ownerId: string; actor: string | null; action: string; name: string }>,
  };
  const free = (keys: readonly string[]) => keys.forEach((key) => state.blobs.delete(key));
  const settle = (reservationId: string, stored: number) => {
    const held = state.reservations.get(reservationId);
    if (!held) return undefined;
    state.reservations.delete(reservationId);
    state.storageUsed -= held.bytes - stored;
    return state.storageUsed;
  };
  const liveNamed = (folderId: string | null, name: string) =>
    state.files.find((file) => file.deleted_at === null && file.folder_id === folderId && file.name.toLowerCase() === name.toLowerCase());
  const reservations: UploadsServiceDeps['reservations'] = {
    async reserve(request) {
      state.heldFor.push(request.userId);
      if (state.reservations.size >= (request.maxConcurrentUploads ?? Infinity)) return 'too-many-uploads';
      if (state.storageUsed + request.bytes > request.storageLimit) return 'storage-full';
      state.storageUsed += request.bytes;
      state.reservations.set(request.id, { bytes: request.bytes, blobKey: request.blobKey });
      return 'reserved';
    },
    async reserveUpTo(request) {
      const bytes = Math.min(request.bytes, request.storageLimit - state.storageUsed);
      if (bytes < 0) return 'storage-full';
      state.storageUsed += bytes;
      state.reservations.set(request.id, { bytes, blobKey: request.blobKey });
      return bytes;
    },
    renew: async (id) => state.reservations.has(id),
    async abandon(_userId, id) {
      const held = state.reservations.get(id);
      if (!held) return undefined;
      state.reservations.delete(id);
      state.storageUsed -= held.bytes;
      return held.blobKey;
    },
  };
  const files: UploadsServiceDeps['files'] = {
    // The batch path (receiveGroup) is proven over HTTP: apps/server/test/sync-uploads.test.ts.
    insertUploadedMany: async () => ({ outcome: 'lease-lost' }),
    async insertUploaded(row, reservationId, options = {}) {
      const taken = liveNamed(row.folder_id, row.name);
      if (taken && options.trashTakenAt) Object.assign(taken, { deleted_at: options.trashTakenAt, trashed_root: 1 });
      else if (taken) return { outcome: 'name-taken' };
      const storageUsed = settle(reservationId, Number(row.size));
      if (storageUsed === undefined) return { outcome: 'lease-lost' };
      state.files.push(row);
      return { outcome: 'stored', storageUsed, ...(taken ? { trashed: taken.id } : {}) };
    },
    async addVersionByName(_userId, folderId, name, content, versionId, reservationId) {
      const current = liveNamed(folderId, name);
      if (!current) return 'no-such-file';
      const storageUsed = settle(reservationId, Number(content.size));
      if (storageUsed === undefined) return 'lease-lost';
      const old = { ...current };
      Object.assign(current, content);
      if (versionId === null) {
        state.storageUsed -= Number(old.size);
        return { row: current, storageUsed: state.storageUsed, dropped: old.blob_key };
      }
      state.versions.push({ id: versionId, fileId: current.id, blobKey: old.blob_key, size: Number(old.size) });
      return { row: current, storageUsed };
    },
    async discardUploaded(_userId, id) {
      const gone = state.files.filter((file) => file.id === id);
      state.files = state.files.filter((file) => file.id !== id);
      state.storageUsed -= gone.reduce((sum, file) => sum + Number(file.size), 0);
      return gone.map((file) => file.blob_key);
    },
    storageUsed: async () => state.storageUsed,
    findLiveByName: async (_userId, folderId, name) => liveNamed(folderId, name),
    async revertToVersion(_userId, fileId, versionId) {
      const version = state.versions.find((entry) => entry.id === versionId && entry.fileId === fileId);
      const file = state.files.find((entry) => entry.id === fileId);
      if (!version || !file) return [];
      const dropped = file.blob_key;
      state.storageUsed -= Number(file.size);
      Object.assign(file, { blob_key: version.blobKey, size: version.size });
      state.versions = state.versions.filter((entry) => entry !== version);
      return [dropped];
    },
    async untrashReplaced(_userId, id) {
      const file = state.files.find((entry) => entry.id === id && entry.trashed_root === 1);
      if (!file || liveNamed(file.folder_id, file.name)) return false;
      Object.assign(file, { deleted_at: null, trashed_root: 0 });
      return true;
    },
  };
  let failPut: Error | undefined;
  const blobs: Pick<BlobStore, 'put' | 'delete'> = {
    delete: async (key) => {
      state.blobs.delete(key);
    },
    async put(key, body, options) {
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        if (failPut) throw failPut;
        for await (const chunk of body as Readable) {
          size += (chunk as Buffer).length;
          if (options?.maxBytes !== undefined && size > options.maxBytes) throw new BlobTooLargeError(options.maxBytes);
          chunks.push(chunk as Buffer);
        }
      } catch (error) {
        (body as Readable).destroy();
        throw error;
      }
      state.blobs.set(key, Buffer.concat(chunks));
      return { size, sha256: 'a'.repeat(64), crc32: 0 };
    },
  };
  const uploads = createUploadsService({
    files,
    reservations,
    folders: {
      requireParent: async (_userId, folderId) => folderId ?? null,
      // "shared" is the owner's, edited by the caller (u1).
      writableFolder: async (userId, id) =>
        id === 'shared' ? { ownerId: 'owner', editorRootId: 'shared' } : { ownerId: userId, editorRootId: null },
    },
    blobs,
    plans: { get: () => plan } as unknown as PlanCatalogue,
    planIdOf: async () => plan.id,
    clock: { now: () => new Date('2026-12-01T10:00:00Z') },
    leaseMs: 60_000,
    deleteQueuedBlobs: async (keys) => free(keys),
    uploaded: async (userId, file) => void (state.reactions.push(file.originalName), state.reactedFor.push(userId)),
    recordFolderActivity: async (entry) =>
      void state.folderActivity.push({ ownerId: entry.ownerId, actor: entry.actor.id, action: entry.action, name: entry.name }),
  });
  /** Nothing held or stored beyond the files listed: no reservation, no stray blob, the counter exact. */
  const leftBehind = () => ({
    reservations: state.reservations.size,
    strayBlobs: [...state.blobs.keys()].filter(
      (key) => !state.files.some((file) => file.blob_key === key) && !state.versions.some((version) => version.blobKey === key),
    ).length,
    drift:
      state.storageUsed -
      state.files.reduce((sum, file) => sum + Number(file.size), 0) -
      state.versions.reduce((sum, version) => sum + version.size, 0),
  });
  return { uploads, state, leftBehind, failPutWith: (error: Error) => void (failPut = error) };
}

const NOTHING = { reservations: 0, strayBlobs: 0, drift: 0 };

/** A raw body (a WebDAV PUT's) of `bytes` into the root as `name`. */
function raw(bytes: Buffer | Readable, name = 'notes.txt', extra: Partial<ReceiveInput> = {}): ReceiveInput {
  const body = Buffer.isBuffer(bytes) ? Readable.from([bytes]) : bytes;
  return {
    userId: 'u1',
    declaredBytes: Buffer.isBuffer(bytes) ? bytes.length : undefined,
    framing: 'raw',
    content: async () => ({ folderId: null, fileName: name, declaredMimetype: 'text/plain', body }),
    ...extra,
  };
}

/** A body that sends `first` and then fails as a connection reset by the client does. */
function cutAfter(first: Buffer): Readable {
  return new Readable({
    read() {
      if (this.readableLength === 0 && !(this as { sent?: boolean }).sent) {
        (this as { sent?: boolean }).sent = true;
        this.push(first);
      } else {
        this.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
      }
    },
  });
}

describe('receiving an upload (one use-case for every way in)', () => {
  it('lists the file, settles its reservation to the stored size and tells the reaction once', async () => {
    const { uploads, state, leftBehind } = setUp();
    const accepted: string[] = [];
    const file = await uploads.receive(raw(Buffer.from('hello'), 'notes.txt', { onAccepted: () => accepted.push('continue') }));
    expect(file).toMatchObject({ originalName: 'notes.txt', size: 5, mimetype: 'text/plain' });
    expect(accepted).toEqual(['continue']);
    expect(state.storageUsed).toBe(5);
    expect(state.reactions).toEqual(['notes.txt']);
    expect(leftBehind()).toEqual(NOTHING);
  });

  it('refuses a declared size over the per-file limit before any byte: exact for a raw body, with room for the framing of a multipart one', async () => {
    const { uploads, state, leftBehind } = setUp();
    let read = false;
    const tooLarge = await refusal(uploads.receive({ ...raw(Buffer.alloc(0)), declaredBytes: MiB + 1, onAccepted: () => (read = true) }));
    expect([tooLarge.status, tooLarge.code]).toEqual([413, 'FILE_TOO_LARGE']);
    expect(read).toBe(false);
    const framed = await refusal(
      uploads.receive({ ...raw(Buffer.alloc(0)), framing: 'multipart', declaredBytes: MiB + MULTIPART_OVERHEAD + 1 }),
    );
    expect(framed.code).toBe('FILE_TOO_LARGE');
    // Within the framing's allowance the declared size passes; the file itself is still held to the limit.
    const streamed = await refusal(
      uploads.receive({ ...raw(Buffer.alloc(MiB + 1)), framing: 'multipart', declaredBytes: MiB + MULTIPART_OVERHEAD }),
    );
    expect([streamed.status, streamed.code]).toEqual([413, 'FILE_TOO_LARGE']);
    expect(state.files).toEqual([]);
    expect(state.storageUsed).toBe(0);
    expect(leftBehind()).toEqual(NOTHING);
  });

  it('checks the per-file limit of a reservation holding several files (a copied folder) on its largest file', async () => {
    const { uploads, state } = setUp();
    const several = await uploads.reserve('u1', 3 * MiB, { framing: 'raw', largestFile: MiB });
    expect(state.storageUsed).toBe(3 * MiB);
    await uploads.release(several);
    const tooLarge = await refusal(uploads.reserve('u1', 3 * MiB, { framing: 'raw', largestFile: MiB + 1 }));
    expect([tooLarge.status, tooLarge.code]).toEqual([413, 'FILE_TOO_LARGE']);
    expect(state.storageUsed).toBe(0);
  });

  it('refuses an upload over the quota with 507 before any byte, and one of unknown length that outgrows the room left', async () => {
    const { uploads, state, leftBehind } = setUp();
    await uploads.receive(raw(Buffer.alloc(MiB), 'a.bin'));
    for (let i = 0; i < 8; i += 1) await uploads.receive(raw(Buffer.alloc(MiB), `b${i}.bin`));
    await uploads.receive(raw(Buffer.alloc(MiB / 2), 'half.bin'));
    const over = await refusal(uploads.receive(raw(Buffer.alloc(MiB), 'c.bin')));
    expect([over.status, over.code]).toEqual([507, 'QUOTA_EXCEEDED']);
    const unknown = await refusal(uploads.receive(raw(Readable.from([Buffer.alloc(MiB)]), 'd.bin')));
    expect([unknown.status, unknown.code]).toEqual([507, 'QUOTA_EXCEEDED']);
    expect(state.files).toHaveLength(10);
    expect(leftBehind()).toEqual(NOTHING);
  });

  it("answers a body the client cut off with the way in's own refusal, logged as routine, and keeps nothing of it", async () => {
    const { uploads, state, leftBehind } = setUp();
    const logged: string[] = [];
    const cutOff = {
      clientGone: () => true,
      answer: () => new AppError(400, 'UPLOAD_INCOMPLETE', 'The upload was cut off'),
      log: {
        info: (_details: object, message: string) => void logged.push(`info: ${message}`),
        warn: (_details: object, message: string) => void logged.push(`warn: ${message}`),
      },
    };
    const refused = await refusal(uploads.receive({ ...raw(cutAfter(Buffer.alloc(1000))), declaredBytes: 5000, cutOff }));
    expect([refused.status, refused.code]).toEqual([400, 'UPLOAD_INCOMPLETE']);
    expect(logged).toEqual(['info: upload stopped by the client']);
    expect(state.files).toEqual([]);
    expect(state.reactions).toEqual([]);
    expect(leftBehind()).toEqual(NOTHING);
  });

  it('passes a store that has no room (ENOSPC: 507 INSUFFICIENT_STORAGE) on, with the reservation given back', async () => {
    const { uploads, state, leftBehind, failPutWith } = setUp();
    failPutWith(insufficientStorage());
    const refused = await refusal(uploads.receive(raw(Buffer.from('hello'))));
    expect([refused.status, refused.code]).toEqual([507, 'INSUFFICIENT_STORAGE']);
    expect(state.storageUsed).toBe(0);
    expect(leftBehind()).toEqual(NOTHING);
  });

  it('discards a listed file when the rest of the body refuses the upload (a second file), before any reaction', async () => {
    const { uploads, state, leftBehind } = setUp();
    const refused = await refusal(
      uploads.receive({
        ...raw(Buffer.from('hello')),
        rest: async () => {
          throw new AppError(400, 'MORE_THAN_ONE_FILE', 'Send one file per upload');
        },
      }),
    );
    expect(refused.code).toBe('MORE_THAN_ONE_FILE');
    expect(state.files).toEqual([]);
    expect(state.reactions).toEqual([]);
    expect(leftBehind()).toEqual(NOTHING);
  });

  it('replaces the bytes of a same-named file (its id kept, the old bytes freed) when asked, and lists a new name otherwise', async () => {
    const { uploads, state, leftBehind } = setUp();
    const first = await uploads.receive(raw(Buffer.from('one'), 'a.txt'));
    const replaced = await uploads.receive(raw(Buffer.from('second'), 'a.txt', { replace: true }));
    expect(replaced).toMatchObject({ id: first.id, size: 6 });
    const renamed = await uploads.receive(raw(Buffer.from('third!!'), 'a.txt'));
    expect(renamed.originalName).toBe('a (1).txt');
    expect(state.storageUsed).toBe(6 + 7);
    expect(state.versions).toEqual([]);
    expect(leftBehind()).toEqual(NOTHING);
  });

  it('keeps the old bytes as a version where the plan keeps versions', async () => {
    const { uploads, state, leftBehind } = setUp(VERSIONED);
    const first = await uploads.receive(raw(Buffer.from('one'), 'a.txt'));
    const next = await uploads.receive(raw(Buffer.from('second'), 'a.txt'));
    expect(next).toMatchObject({ id: first.id, size: 6 });
    expect(state.versions).toMatchObject([{ fileId: first.id, size: 3 }]);
    expect(state.storageUsed).toBe(3 + 6);
    expect(leftBehind()).toEqual(NOTHING);
  });

  it('refuses a folder id that is not an id, and takes "null" and an empty one as the root', async () => {
    expect(() => folderIdOf('../etc')).toThrow(/folderId is not a valid id/);
    expect([folderIdOf('null'), folderIdOf(''), folderIdOf(undefined), folderIdOf('abc_123')]).toEqual([null, null, null, 'abc_123']);
  });
});

describe("an upload into a folder the caller edits is the owner's (docs/decisions/0061-share-roles.md)", () => {
  const intoShared = (extra: Partial<ReceiveInput> = {}): ReceiveInput => ({
    ...raw(Buffer.from('hello'), 'notes.txt'),
    content: async () => ({
      folderId: 'shared',
      fileName: 'notes.txt',
      declaredMimetype: 'text/plain',
      body: Readable.from([Buffer.from('hello')]),
    }),
    ...extra,
  });

  it("known before the body, only the owner's quota is held; the file, the reaction and the folder's activity are the owner's", async () => {
    const { uploads, state, leftBehind } = setUp();
    const file = await uploads.receive(intoShared({ folderId: 'shared' }));
    expect(file.folderId).toBe('shared');
    expect(state.files.map((row) => row.user_id)).toEqual(['owner']);
    expect(state.heldFor).toEqual(['owner']);
    expect(state.reactedFor).toEqual(['owner']);
    expect(state.folderActivity).toEqual([{ ownerId: 'owner', actor: 'u1', action: 'uploaded', name: 'notes.txt' }]);
    expect(leftBehind()).toEqual(NOTHING);
  });

  it("named by the body, read first: only the owner's quota is held, before any byte of the file", async () => {
    const { uploads, state, leftBehind } = setUp();
    await uploads.receive(intoShared({ readsFolderFirst: true }));
    expect(state.heldFor).toEqual(['owner']);
    expect(leftBehind()).toEqual(NOTHING);
  });

  it("named by the body a client sends after 100 Continue: the caller's hold first, then the owner's, the caller's given back", async () => {
    const { uploads, state, leftBehind } = setUp();
    await uploads.receive(intoShared());
    expect(state.heldFor).toEqual(['u1', 'owner']);
    expect(state.files.map((row) => row.user_id)).toEqual(['owner']);
    expect(leftBehind()).toEqual(NOTHING);
  });

  it("the caller's own upload records no folder activity", async () => {
    const { uploads, state } = setUp();
    await uploads.receive(raw(Buffer.from('hello')));
    expect([state.heldFor, state.reactedFor, state.folderActivity]).toEqual([['u1'], ['u1'], []]);
  });
});

describe('a name the folder holds, with the choice the client sent (docs/decisions/0050-name-clashes.md)', () => {
  const contentOf = (state: ReturnType<typeof setUp>['state'], file: FileRow | undefined) =>
    state.blobs.get(file?.blob_key ?? '')?.toString();

  it('keep-both lists "name (1).ext" even where the plan keeps versions', async () => {
    const { uploads, state, leftBehind } = setUp(VERSIONED);
    const first = await uploads.receive(raw(Buffer.from('one'), 'a.txt'));
    const both = await uploads.receive(raw(Buffer.from('two'), 'a.txt', { conflict: 'keep-both' }));
    expect(both.id).not.toBe(first.id);
    expect(state.files.map((file) => file.name)).toEqual(['a.txt', 'a (1).txt']);
    expect(state.versions).toEqual([]);
    expect(leftBehind()).toEqual(NOTHING);
  });

  it('replace keeps the old content as a version where the plan keeps versions, the file keeping its id', async () => {
    const { uploads, state, leftBehind } = setUp(VERSIONED);
    const first = await uploads.receive(raw(Buffer.from('one'), 'a.txt'));
    const replaced = await uploads.receive(raw(Buffer.from('second'), 'a.txt', { conflict: 'replace' }));
    expect(replaced).toMatchObject({ id: first.id, size: 6 });
    expect(state.versions).toMatchObject([{ fileId: first.id, size: 3 }]);
    expect(leftBehind()).toEqual(NOTHING);
  });

  it('replace puts the old file in Trash, its bytes kept and counted, where the plan keeps no versions', async () => {
    const { uploads, state, leftBehind } = setUp(FREE);
    const first = await uploads.receive(raw(Buffer.from('one'), 'a.txt'));
    const replaced = await uploads.receive(raw(Buffer.from('second'), 'a.txt', { conflict: 'replace' }));
    expect(replaced).toMatchObject({ originalName: 'a.txt', size: 6 });
    const old = state.files.find((file) => file.id === first.id);
    expect(old).toMatchObject({ name: 'a.txt', deleted_at: '2026-12-01T10:00:00.000Z', trashed_root: 1 });
    expect(contentOf(state, old)).toBe('one');
    expect(state.storageUsed).toBe(3 + 6);
    expect(leftBehind()).toEqual(NOTHING);
  });

  /** A Replace of a.txt that the rest of its multipart body refuses once the file is listed (a second file). */
  const replaceRefusedAfterListing = (uploads: ReturnType<typeof setUp>['uploads']) =>
    uploads.receive({
      ...raw(Buffer.from('second'), 'a.txt', { conflict: 'replace' }),
      rest: async () => {
        throw new AppError(400, 'MORE_THAN_ONE_FILE', 'Send one file per upload');
      },
    });

  it('a new version refused after listing (the rest of the body) is undone: the file keeps its old bytes and no version', async () => {
    const { uploads, state, leftBehind } = setUp(VERSIONED);
    const first = await uploads.receive(raw(Buffer.from('one'), 'a.txt'));
    const refused = await refusal(replaceRefusedAfterListing(uploads));
    expect(refused.code).toBe('MORE_THAN_ONE_FILE');
    expect(state.files.map((file) => [file.id, state.blobs.get(file.blob_key)?.toString()])).toEqual([[first.id, 'one']]);
    expect(state.versions).toEqual([]);
    expect(leftBehind()).toEqual(NOTHING);
  });

  it('replace on a plan without versions takes the old file back out of Trash when the rest of the body refuses the upload', async () => {
    const { uploads, state, leftBehind } = setUp(FREE);
    const first = await uploads.receive(raw(Buffer.from('one'), 'a.txt'));
    const refused = await refusal(replaceRefusedAfterListing(uploads));
    expect(refused.code).toBe('MORE_THAN_ONE_FILE');
    expect(state.files.map((file) => [file.id, file.deleted_at])).toEqual([[first.id, null]]);
    expect(leftBehind()).toEqual(NOTHING);
  });

  it('fail answers 409 NAME_TAKEN with the existing file before any byte is stored, and keeps nothing', async () => {
    const { uploads, state, leftBehind } = setUp(VERSIONED);
    const first = await uploads.receive(raw(Buffer.from('one'), 'a.txt'));
    const refused = await refusal(uploads.receive(raw(Buffer.from('two'), 'A.TXT', { conflict: 'fail' })));
    expect([refused.status, refused.code, refused.details]).toEqual([409, 'NAME_TAKEN', { existingId: first.id }]);
    expect(state.blobs.size).toBe(1);
    expect(state.versions).toEqual([]);
    expect(leftBehind()).toEqual(NOTHING);
    // A free name is uploaded as usual.
    expect((await uploads.receive(raw(Buffer.from('two'), 'b.txt', { conflict: 'fail' }))).originalName).toBe('b.txt');
  });

  it('fail refuses a name listed while the bytes streamed with 409 at the end, and keeps nothing of the upload', async () => {
    const { uploads, state, leftBehind } = setUp(FREE);
    const other = await uploads.receive(raw(Buffer.from('one'), 'other.txt'));
    // Another request lists a.txt while this body is read.
    const body = Readable.from(
      (async function* () {
        yield Buffer.from('tw');
        Object.assign(
          state.files.find((file) => file.id === other.id)!,
          { name: 'a.txt' },
        );
        yield Buffer.from('o');
      })(),
    );
    const refused = await refusal(
      uploads.receive({
        ...raw(Buffer.from('two'), 'a.txt', { conflict: 'fail' }),
        content: async () => ({ folderId: null, fileName: 'a.txt', declaredMimetype: 'text/plain', body }),
      }),
    );
    expect([refused.status, refused.code, refused.details]).toEqual([409, 'NAME_TAKEN', { existingId: other.id }]);
    expect(state.files.map((file) => file.name)).toEqual(['a.txt']);
    expect(leftBehind()).toEqual(NOTHING);
  });

  it('reads the choice a way in was sent: nothing keeps the default, anything but the three choices is a 400', () => {
    expect([nameConflictOf(undefined), nameConflictOf(null), nameConflictOf(''), nameConflictOf('keep-both')]).toEqual([
      undefined,
      undefined,
      undefined,
      'keep-both',
    ]);
    expect(() => nameConflictOf('overwrite')).toThrow(/conflict must be replace, keep-both or fail/);
  });
});
