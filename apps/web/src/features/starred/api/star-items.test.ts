import { describe, expect, it } from 'vitest';
import { withStars } from './star-items';

const file = (id: string, starred = false) => ({ id, originalName: `${id}.txt`, starred });

describe('withStars', () => {
  const ids = new Set(['a']);

  it('marks the item in a listing and keeps the others as they are', () => {
    const other = file('b');
    const marked = withStars([file('a'), other], ids, true) as Array<{ id: string; starred: boolean }>;
    expect(marked.map((item) => item.starred)).toEqual([true, false]);
    expect(marked[1]).toBe(other);
  });

  it('reaches the arrays of an answer object and the pages of a paged listing', () => {
    const starredView = { folders: [], files: [file('a', true)], nextCursor: null };
    expect(withStars(starredView, ids, false)).toEqual({ folders: [], files: [file('a', false)], nextCursor: null });
    const paged = { pages: [{ files: [file('a')] }], pageParams: [null] };
    expect(withStars(paged, ids, true)).toEqual({ pages: [{ files: [file('a', true)] }], pageParams: [null] });
  });

  it('answers the same object when nothing in it changes', () => {
    const listing = [file('b'), file('a', true)];
    expect(withStars(listing, ids, true)).toBe(listing);
    const storage = { storageInfo: { storageUsed: 1 } };
    expect(withStars(storage, ids, true)).toBe(storage);
  });
});
