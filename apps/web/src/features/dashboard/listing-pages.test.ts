import { describe, expect, it } from 'vitest';
import type { FileItem } from '@cloudvault/contract/files';
import type { Folder } from '@cloudvault/contract/folders';
import { LISTING_PAGE_SIZE, listingPageQuery } from '../../hooks/use-files';
import {
  compareInListing,
  driveItemsFromPages,
  insertIntoPages,
  mergePages,
  nextSortOnHeader,
  removeFromPages,
  sortableFile,
  type ListingOrderChoice,
  type PagedData,
} from './listing-pages';

const file = (id: string, originalName: string, fields: Partial<FileItem> = {}): FileItem => ({
  id,
  originalName,
  mimetype: 'text/plain',
  size: 1,
  sizeFormatted: '1 Byte',
  preview: 'text',
  contentTag: 'tag',
  contentHash: 'a'.repeat(64),
  folderId: null,
  createdAt: '2026-12-01T00:00:00.000Z',
  updatedAt: '2026-12-01T00:00:00.000Z',
  ...fields,
});
const folder = (id: string, name: string): Folder => ({
  id,
  name,
  parentId: null,
  createdAt: '2026-12-01T00:00:00.000Z',
  updatedAt: '2026-12-01T00:00:00.000Z',
});
const paged = <T>(...pages: Array<{ items: T[]; nextCursor: string | null }>): PagedData<T> => ({
  pages,
  pageParams: pages.map((_, index) => (index === 0 ? null : `c${index}`)),
});
const names = (data: PagedData<FileItem>) => data.pages.flatMap((page) => page.items.map((item) => item.originalName));
const byName: ListingOrderChoice = { sort: 'name', order: 'asc' };
const compareBy = (listing: ListingOrderChoice) => (a: FileItem, b: FileItem) =>
  compareInListing(sortableFile(a), sortableFile(b), listing);

describe('sort parameters', () => {
  it('asks for a page of the chosen order, with the cursor after the first page', () => {
    expect(listingPageQuery({ sort: 'size', order: 'desc' }, null)).toEqual({
      sort: 'size',
      order: 'desc',
      limit: String(LISTING_PAGE_SIZE),
    });
    expect(listingPageQuery(byName, 'abc')).toEqual({ sort: 'name', order: 'asc', limit: String(LISTING_PAGE_SIZE), cursor: 'abc' });
  });

  it('a header click sorts by another column ascending, and flips the sorted one', () => {
    expect(nextSortOnHeader(byName, 'size')).toEqual({ sort: 'size', order: 'asc' });
    expect(nextSortOnHeader({ sort: 'size', order: 'desc' }, 'modified')).toEqual({ sort: 'modified', order: 'asc' });
    expect(nextSortOnHeader(byName, 'name')).toEqual({ sort: 'name', order: 'desc' });
    expect(nextSortOnHeader({ sort: 'name', order: 'desc' }, 'name')).toEqual({ sort: 'name', order: 'asc' });
  });
});

describe('the order of the server, in the browser', () => {
  it('names in natural order, case-insensitively; equal keys by id', () => {
    const files = [file('1', 'file 10.txt'), file('2', 'File 2.txt'), file('3', 'file 1.txt'), file('0', 'file 01.txt')];
    expect([...files].sort(compareBy(byName)).map((entry) => entry.originalName)).toEqual([
      'file 01.txt',
      'file 1.txt',
      'File 2.txt',
      'file 10.txt',
    ]);
    expect([...files].sort(compareBy({ sort: 'name', order: 'desc' })).map((entry) => entry.id)).toEqual(['1', '2', '3', '0']);
  });

  it('size, modified and type first, the name second', () => {
    const big = file('a', 'b.txt', { size: 10, mimetype: 'text/plain', updatedAt: '2026-12-03T00:00:00.000Z' });
    const small = file('b', 'a.txt', { size: 2, mimetype: 'image/png', updatedAt: '2026-12-02T00:00:00.000Z' });
    const sameSize = file('c', 'c.txt', { size: 10, mimetype: 'application/pdf', updatedAt: '2026-12-01T00:00:00.000Z' });
    const order = (listing: ListingOrderChoice) => [big, small, sameSize].sort(compareBy(listing)).map((entry) => entry.id);
    expect(order({ sort: 'size', order: 'asc' })).toEqual(['b', 'a', 'c']);
    expect(order({ sort: 'size', order: 'desc' })).toEqual(['c', 'a', 'b']);
    expect(order({ sort: 'modified', order: 'asc' })).toEqual(['c', 'b', 'a']);
    expect(order({ sort: 'type', order: 'asc' })).toEqual(['c', 'b', 'a']);
  });
});

describe('page merging', () => {
  it('joins pages in order, each item once', () => {
    const one = file('1', 'a');
    const two = file('2', 'b');
    expect(
      mergePages([
        { items: [one, two], nextCursor: 'x' },
        { items: [two, file('3', 'c')], nextCursor: null },
      ]).map((entry) => entry.id),
    ).toEqual(['1', '2', '3']);
  });

  it('shows folders first, and files only once the last folder page came', () => {
    const folders = { pages: [{ items: [folder('f1', 'Zeta')], nextCursor: 'more' }], complete: false };
    const files = { pages: [{ items: [file('1', 'a.txt')], nextCursor: null }], complete: true };
    expect(driveItemsFromPages(folders, files).map((item) => item.key)).toEqual(['folder:f1']);
    expect(driveItemsFromPages({ ...folders, complete: true }, files).map((item) => item.key)).toEqual(['folder:f1', 'file:1']);
  });

  it('puts a new item where its order has it, in whichever page that is', () => {
    const data = paged({ items: [file('1', 'a'), file('2', 'c')], nextCursor: 'x' }, { items: [file('3', 'e')], nextCursor: null });
    expect(names(insertIntoPages(data, file('4', 'd'), compareBy(byName)))).toEqual(['a', 'c', 'd', 'e']);
    expect(names(insertIntoPages(data, file('5', 'B'), compareBy(byName)))).toEqual(['a', 'B', 'c', 'e']);
    expect(names(insertIntoPages(data, file('6', 'z'), compareBy(byName)))).toEqual(['a', 'c', 'e', 'z']);
    // The same id again (a new version): moved, not doubled.
    expect(names(insertIntoPages(data, file('1', 'f'), compareBy(byName)))).toEqual(['c', 'e', 'f']);
  });

  it('leaves an item past everything read to the page that will bring it', () => {
    const data = paged({ items: [file('1', 'a'), file('2', 'c')], nextCursor: 'x' });
    expect(names(insertIntoPages(data, file('3', 'z'), compareBy(byName)))).toEqual(['a', 'c']);
    expect(names(insertIntoPages(data, file('3', 'b'), compareBy(byName)))).toEqual(['a', 'b', 'c']);
  });

  it('removes an item from whichever page holds it', () => {
    const data = paged({ items: [file('1', 'a')], nextCursor: 'x' }, { items: [file('2', 'b'), file('3', 'c')], nextCursor: null });
    expect(names(removeFromPages(data, '2'))).toEqual(['a', 'c']);
    expect(removeFromPages(data, '2').pageParams).toEqual(data.pageParams);
  });
});
