import { describe, expect, it } from 'vitest';
import { copiedFileRow, planFolderCopies, type SourceFolder } from './copy-tree.ts';

const stamp = { userId: 'user-1', now: '2026-12-06T00:00:00.000Z' };
const counter = () => {
  let next = 0;
  return () => `new-${(next += 1)}`;
};

describe('planFolderCopies', () => {
  const tree: SourceFolder[] = [
    // Listed children before parents, as a query may answer them.
    { id: 'deep', parent_id: 'empty', name: 'Deep' },
    { id: 'empty', parent_id: 'trip', name: 'Empty' },
    { id: 'trip', parent_id: 'top', name: 'Trip' },
    { id: 'other', parent_id: 'top', name: 'Other' },
    { id: 'top', parent_id: 'somewhere', name: 'Photos' },
  ];

  it('gives every folder a new row under the copy of its parent, each parent before its children', () => {
    const { rows, copyOf } = planFolderCopies('top', tree, { destination: 'dest', topName: 'Photos (1)' }, stamp, counter());
    expect(rows).toHaveLength(5);
    expect(rows[0]).toMatchObject({ id: copyOf.get('top'), parent_id: 'dest', name: 'Photos (1)', user_id: 'user-1', deleted_at: null });
    for (const source of tree.filter((folder) => folder.id !== 'top')) {
      const copy = rows.find((row) => row.id === copyOf.get(source.id))!;
      expect(copy).toMatchObject({ name: source.name, parent_id: copyOf.get(source.parent_id!) });
      expect(rows.indexOf(copy)).toBeGreaterThan(rows.findIndex((row) => row.id === copy.parent_id));
    }
    expect(new Set(rows.map((row) => row.id)).size).toBe(5);
  });

  it('copies a lone folder into the root', () => {
    const { rows } = planFolderCopies(
      'top',
      [{ id: 'top', parent_id: null, name: 'A' }],
      { destination: null, topName: 'A' },
      stamp,
      counter(),
    );
    expect(rows).toEqual([expect.objectContaining({ id: 'new-1', parent_id: null, name: 'A' })]);
  });

  it('walks a chain deeper than the call stack allows recursion', () => {
    const chain: SourceFolder[] = Array.from({ length: 20_000 }, (_, depth) => ({
      id: `f${depth}`,
      parent_id: depth === 0 ? null : `f${depth - 1}`,
      name: 'n',
    }));
    const { rows } = planFolderCopies('f0', chain, { destination: null, topName: 'n' }, stamp, counter());
    expect(rows).toHaveLength(20_000);
    expect(rows.at(-1)!.parent_id).toBe(rows.at(-2)!.id);
  });

  it('refuses a set of folders without its top folder', () => {
    expect(() => planFolderCopies('missing', tree, { destination: null, topName: 'x' }, stamp, counter())).toThrow(/top folder/);
  });
});

describe('copiedFileRow', () => {
  it('keeps the bytes, type and hash under a new id and blob, new in time', () => {
    const source = {
      id: 'old',
      folder_id: 'a',
      name: 'a.txt',
      mimetype: 'text/plain',
      category: 'document',
      size: 5,
      sha256: 'abc',
      crc32: 7,
      blob_key: 'old-key',
    };
    const row = copiedFileRow(source, { id: 'new', blobKey: 'new-key', folderId: 'b', name: 'a (1).txt' }, stamp);
    expect(row).toEqual({
      id: 'new',
      user_id: 'user-1',
      folder_id: 'b',
      name: 'a (1).txt',
      mimetype: 'text/plain',
      category: 'document',
      size: 5,
      sha256: 'abc',
      crc32: 7,
      blob_key: 'new-key',
      created_at: stamp.now,
      updated_at: stamp.now,
      deleted_at: null,
      trashed_root: 0,
    });
  });
});
