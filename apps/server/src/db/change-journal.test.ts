import { describe, expect, it } from 'vitest';
import { memberEntries, type Reach, type TreeChange } from './change-journal.ts';

// Ada shares Work privately with Bob, and the file Plan.pdf (in Private) on its own with Carol.
const reach: Reach = {
  byLocation: new Map([
    ['work', [{ memberId: 'bob', shareId: 'share-bob', depth: 0 }]],
    ['reports', [{ memberId: 'bob', shareId: 'share-bob', depth: 1 }]],
  ]),
  byItem: new Map([['plan', [{ memberId: 'carol', shareId: 'share-carol', depth: -1 }]]]),
};
const file = (change: Partial<TreeChange>): TreeChange => ({
  op: 'created',
  kind: 'file',
  id: 'doc',
  parentId: 'reports',
  name: 'doc.txt',
  ...change,
});
const seen = (change: TreeChange) =>
  memberEntries(change, reach).map(({ userId, shareId, change: { op, parentId } }) => ({ userId, shareId, op, parentId }));

describe('what members of private shares see of a change', () => {
  it('shows a change below a shared folder to its members, with the share, and nothing outside it', () => {
    expect(seen(file({}))).toEqual([{ userId: 'bob', shareId: 'share-bob', op: 'created', parentId: 'reports' }]);
    expect(seen(file({ parentId: 'private' }))).toEqual([]);
    expect(seen(file({ parentId: null }))).toEqual([]);
  });

  it('shows a move into a shared folder as created, out of it as deleted, and within it as moved', () => {
    expect(seen(file({ op: 'moved', parentId: 'work', previousParentId: 'private' }))).toEqual([
      { userId: 'bob', shareId: 'share-bob', op: 'created', parentId: 'work' },
    ]);
    expect(seen(file({ op: 'moved', parentId: 'private', previousParentId: 'reports' }))).toEqual([
      { userId: 'bob', shareId: 'share-bob', op: 'deleted', parentId: 'reports' },
    ]);
    expect(seen(file({ op: 'moved', parentId: 'work', previousParentId: 'reports' }))).toEqual([
      { userId: 'bob', shareId: 'share-bob', op: 'moved', parentId: 'work' },
    ]);
  });

  it('shows an item shared on its own at the top of the member’s view, wherever it moves', () => {
    const plan = file({ id: 'plan', op: 'moved', parentId: 'work', previousParentId: 'private' });
    expect(seen(plan)).toEqual([
      { userId: 'carol', shareId: 'share-carol', op: 'moved', parentId: null },
      { userId: 'bob', shareId: 'share-bob', op: 'created', parentId: 'work' },
    ]);
    expect(seen(file({ id: 'plan', op: 'updated', parentId: 'private' }))).toEqual([
      { userId: 'carol', shareId: 'share-carol', op: 'updated', parentId: null },
    ]);
  });
});
