import { describe, expect, it } from 'vitest';
import { BlobNotFoundError } from '../../adapters/blob-store/blob-store.ts';
import type { FilesTable, FoldersTable } from '../../db/schema.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { SourceFile, SourceFolder } from './copy-tree.ts';
import type { CopyListing } from './copy.repository.ts';
import { createCopyService, type CopyServiceDeps } from './copy.service.ts';
import type { CopyMade } from './stored-reaction.ts';
import type { UploadReservation } from './uploads.service.ts';

const file = (id: string, folderId: string | null, size: number): SourceFile & FilesTable => ({
  id,
  user_id: 'me',
  folder_id: folderId,
  name: `${id}.bin`,
  mimetype: 'application/octet-stream',
  category: 'other',
  size,
  sha256: `sha-${id}`,
  crc32: 1,
  blob_key: `blob-${id}`,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  deleted_at: null,
  trashed_root: 0,
});

/**
 * The use-case over in-memory fakes: a tree of folders and files, a store of blobs by key,
 * and reservations that count what is held; `listing` decides what the repository answers.
 * The sources are `owner`'s (the caller's, 'me', unless said), readable by the caller.
 */
function setUp(
  options: {
    folders?: SourceFolder[];
    files?: ReturnType<typeof file>[];
    listing?: CopyListing[];
    failCopyOf?: string;
    owner?: string;
  } = {},
) {
  const owner = options.owner ?? 'me';
  const folders = options.folders ?? [];
  const files = options.files ?? [];
  const state = {
    blobs: new Set(files.map((source) => source.blob_key)),
    held: new Map<string, number>(),
    reserved: [] as Array<{ userId: string; bytes: number | undefined; largestFile: number | undefined }>,
    listed: [] as Array<{ userId: string; folders: FoldersTable[]; files: FilesTable[]; storedBytes: number }>,
    /** Whose tree each read of the source asked for. */
    treeReadAs: new Set<string>(),
    pagesRead: 0,
    /** What each kept copy's reaction was told (files/stored-reaction.ts). */
    reactions: [] as CopyMade[],
  };
  const listings = [...(options.listing ?? [])];
  let ids = 0;
  const under = (topId: string) => {
    const ids = new Set([topId]);
    for (let grew = true; grew;) {
      grew = false;
      for (const folder of folders)
        if (folder.parent_id && ids.has(folder.parent_id) && !ids.has(folder.id)) grew = Boolean(ids.add(folder.id));
    }
    return ids;
  };
  const deps: CopyServiceDeps = {
    copies: {
      async treeFolders(userId, id) {
        state.treeReadAs.add(userId);
        return folders.filter((folder) => under(id).has(folder.id));
      },
      async treeTotals(userId, id) {
        state.treeReadAs.add(userId);
        const inTree = files.filter((source) => under(id).has(source.folder_id!));
        return {
          files: inTree.length,
          bytes: inTree.reduce((sum, source) => sum + source.size, 0),
          largest: Math.max(0, ...inTree.map((source) => source.size)),
        };
      },
      async treeFilesPage(userId, id, afterId, limit) {
        state.treeReadAs.add(userId);
        state.pagesRead += 1;
        const inTree = files.filter((source) => under(id).has(source.folder_id!) && source.id > afterId);
        return inTree.sort((a, b) => a.id.localeCompare(b.id)).slice(0, limit);
      },
      async listCopy(input) {
        const answer = listings.shift() ?? { outcome: 'listed', name: (input.folders[0] ?? input.files[0])!.name, storageUsed: 0 };
        if (answer.outcome === 'listed') {
          state.listed.push(input);
          state.held.delete(input.reservationId);
        }
        return answer;
      },
    },
    files: {
      async readableFile(_userId, id) {
        const source = files.find((one) => one.id === id);
        if (!source) throw notFound('File not found', 'FILE_NOT_FOUND');
        return { file: { ...source, user_id: owner }, ownerId: owner, role: 'owner' as const };
      },
    },
    folders: {
      async readableFolder(_userId, id) {
        if (!folders.some((one) => one.id === id)) throw notFound('Folder not found', 'FOLDER_NOT_FOUND');
        return { ownerId: owner, sharedPath: null, access: null };
      },
    },
    uploads: {
      async destination(userId, folderId) {
        if (folderId && !folders.some((one) => one.id === folderId)) throw notFound('Folder not found', 'FOLDER_NOT_FOUND');
        return { ownerId: userId, folderId: folderId ?? null };
      },
      async reserve(userId, bytes, reserveOptions) {
        state.reserved.push({ userId, bytes, largestFile: reserveOptions.largestFile });
        const reservation: UploadReservation = {
          id: `r${state.reserved.length}`,
          userId: 'me',
          bytes: bytes!,
          blobKey: 'unused',
          settled: false,
          storageLimit: 1_000_000,
          stopRenewing() {},
        };
        state.held.set(reservation.id, bytes!);
        return reservation;
      },
      async release(reservation) {
        if (!reservation.settled) state.held.delete(reservation.id);
      },
    },
    blobs: {
      async copy(from, to) {
        if (from === options.failCopyOf) throw new Error('store failed');
        if (!state.blobs.has(from)) throw new BlobNotFoundError(from);
        state.blobs.add(to);
      },
      delete: async (key) => void state.blobs.delete(key),
    },
    copied: async (_userId, copy) => void state.reactions.push(copy),
    clock: { now: () => new Date('2026-12-06T00:00:00.000Z') },
    newId: () => `id${(ids += 1)}`,
  };
  return { copies: createCopyService(deps), state };
}

const TREE: SourceFolder[] = [
  { id: 'top', parent_id: null, name: 'Top' },
  { id: 'sub', parent_id: 'top', name: 'Sub' },
  { id: 'empty', parent_id: 'sub', name: 'Empty' },
];

describe('copying a folder', () => {
  it('holds the whole size up front, checks the largest file, copies every blob and lists the tree at once', async () => {
    const sources = [file('a', 'top', 10), file('b', 'sub', 30), file('c', 'sub', 5)];
    const { copies, state } = setUp({ folders: TREE, files: sources });
    const folder = await copies.copyFolder('me', 'top', { parentId: null });

    expect(state.reserved).toEqual([{ userId: 'me', bytes: 45, largestFile: 30 }]);
    const [listed] = state.listed;
    expect(listed!.storedBytes).toBe(45);
    expect(listed!.folders.map((row) => row.name)).toEqual(['Top', 'Sub', 'Empty']);
    expect(folder).toMatchObject({ id: listed!.folders[0]!.id, name: 'Top', parentId: null });
    const copyOf = new Map(listed!.folders.map((row, index) => [TREE[index]!.id, row.id]));
    for (const source of sources) {
      const row = listed!.files.find((copy) => copy.name === source.name)!;
      expect(row).toMatchObject({ folder_id: copyOf.get(source.folder_id!), sha256: source.sha256, size: source.size });
      expect(state.blobs.has(row.blob_key)).toBe(true);
    }
    expect(state.held.size).toBe(0);
  });

  it("reads a shared folder's tree as its owner's, and holds, lists and owns the copy as the caller's", async () => {
    const sources = [file('a', 'top', 10), file('b', 'empty', 20)];
    const { copies, state } = setUp({ folders: TREE, files: sources, owner: 'them' });
    await copies.copyFolder('me', 'top', { parentId: null });

    expect([...state.treeReadAs]).toEqual(['them']);
    expect(state.reserved).toEqual([{ userId: 'me', bytes: 30, largestFile: 20 }]);
    const [listed] = state.listed;
    expect(listed!.userId).toBe('me');
    expect([...listed!.folders, ...listed!.files].every((row) => row.user_id === 'me')).toBe(true);
  });

  it('refuses a copy into itself or a folder under it before holding anything', async () => {
    const { copies, state } = setUp({ folders: TREE });
    for (const parentId of ['top', 'empty']) {
      await expect(copies.copyFolder('me', 'top', { parentId })).rejects.toMatchObject({ status: 400, code: 'COPY_INTO_ITSELF' });
    }
    expect(state.reserved).toEqual([]);
  });

  it('deletes the blobs it copied and gives the reservation back when a blob copy fails', async () => {
    const sources = [file('a', 'top', 1), file('b', 'top', 1), file('c', 'top', 1)];
    const { copies, state } = setUp({ folders: TREE, files: sources, failCopyOf: 'blob-b' });
    await expect(copies.copyFolder('me', 'top', { parentId: null })).rejects.toThrow('store failed');
    expect([...state.blobs].sort()).toEqual(['blob-a', 'blob-b', 'blob-c']);
    expect(state.held.size).toBe(0);
    expect(state.listed).toEqual([]);
  });

  it('answers 409 when a file was purged while the copy ran, leaving nothing', async () => {
    const sources = [file('a', 'top', 1), file('b', 'top', 1)];
    const { copies, state } = setUp({ folders: TREE, files: sources });
    state.blobs.delete('blob-b');
    await expect(copies.copyFolder('me', 'top', { parentId: null })).rejects.toMatchObject({
      status: 409,
      code: 'COPY_SOURCE_CHANGED',
    });
    expect([...state.blobs]).toEqual(['blob-a']);
    expect(state.held.size).toBe(0);
  });

  it('reads the files a page at a time', async () => {
    const sources = Array.from({ length: 1_201 }, (_, index) => file(`f${String(index).padStart(5, '0')}`, 'sub', 1));
    const { copies, state } = setUp({ folders: TREE, files: sources });
    await copies.copyFolder('me', 'top', { parentId: null });
    expect(state.pagesRead).toBe(4);
    expect(state.listed[0]!.files).toHaveLength(1_201);
  });
});

describe('copying a file', () => {
  it('tries the listing again when the chosen name was taken meanwhile', async () => {
    const { copies, state } = setUp({ files: [file('a', null, 7)], listing: [{ outcome: 'name-taken' }] });
    const copy = await copies.copyFile('me', 'a', { folderId: null, name: 'renamed.bin' });
    expect(copy).toMatchObject({ originalName: 'renamed.bin', size: 7, folderId: null });
    expect(state.listed).toHaveLength(1);
  });

  it("copies a file shared with the caller as the caller's, held against their quota", async () => {
    const { copies, state } = setUp({ files: [file('a', 'shared', 7)], owner: 'them' });
    await copies.copyFile('me', 'a', { folderId: null });
    expect(state.reserved).toEqual([{ userId: 'me', bytes: 7, largestFile: 7 }]);
    expect(state.listed[0]).toMatchObject({ userId: 'me', files: [{ user_id: 'me', folder_id: null, size: 7 }] });
  });

  it('keeps nothing when its reservation was taken for dead before the listing', async () => {
    const { copies, state } = setUp({ files: [file('a', null, 7)], listing: [{ outcome: 'lease-lost' }] });
    const refusal = await copies.copyFile('me', 'a', { folderId: null }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ status: 503, code: 'COPY_LEASE_LOST' });
    expect([...state.blobs]).toEqual(['blob-a']);
  });

  it("answers 404 for a file or destination that is not the caller's", async () => {
    const { copies, state } = setUp({ files: [file('a', null, 7)] });
    await expect(copies.copyFile('me', 'missing', { folderId: null })).rejects.toMatchObject({ status: 404, code: 'FILE_NOT_FOUND' });
    await expect(copies.copyFile('me', 'a', { folderId: 'theirs' })).rejects.toMatchObject({ status: 404, code: 'FOLDER_NOT_FOUND' });
    expect(state.reserved).toEqual([]);
  });
});
