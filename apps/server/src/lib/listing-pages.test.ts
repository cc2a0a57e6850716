import { describe, expect, it } from 'vitest';
import { AppError } from './errors.ts';
import { encodeListingCursor, listingPage } from './listing-pages.ts';

const refusal = (run: () => unknown): string | undefined => {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError && error.status === 400) return error.code;
    throw error;
  }
  return undefined;
};

describe('listingPage', () => {
  it('is null without sort, order, limit or cursor: the listing answers as it always has', () => {
    expect(listingPage('files', {})).toBeNull();
  });

  it('defaults to name ascending, every item', () => {
    expect(listingPage('files', { order: 'desc' })).toEqual({ sort: 'name', order: 'desc', limit: null, after: null });
    expect(listingPage('folders', { limit: '100' })).toEqual({ sort: 'name', order: 'asc', limit: 100, after: null });
  });

  it('takes a limit from 1 to 1000 written as a whole number', () => {
    expect(listingPage('files', { limit: '1' })?.limit).toBe(1);
    expect(listingPage('files', { limit: '1000' })?.limit).toBe(1000);
    for (const limit of ['0', '1001', '-1', '1.5', '1e2', ' 5', '', 'ten']) {
      expect(
        refusal(() => listingPage('files', { limit })),
        limit,
      ).toBe('INVALID_LIMIT');
    }
  });

  it('continues from the position its own cursor carries', () => {
    const cursor = encodeListingCursor('files', { sort: 'size', order: 'desc' }, [42, 'report 002', 'id-1']);
    expect(listingPage('files', { sort: 'size', order: 'desc', cursor })?.after).toEqual([42, 'report 002', 'id-1']);
  });

  it("refuses a cursor of another listing, sort or order, or one that is not this server's JSON", () => {
    const cursor = encodeListingCursor('files', { sort: 'size', order: 'desc' }, [42, 'a', 'b']);
    const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const cases: Array<[string, Parameters<typeof listingPage>[1]]> = [
      ['other listing', { sort: 'size', order: 'desc', cursor }],
      ['other sort', { sort: 'name', order: 'desc', cursor }],
      ['other order', { sort: 'size', order: 'asc', cursor }],
      ['not JSON', { cursor: Buffer.from('{"sort":').toString('base64url') }],
      ['not an object', { cursor: forged(7) }],
      ['no position', { cursor: forged({ listing: 'files', sort: 'name', order: 'asc' }) }],
      ['a position of objects', { cursor: forged({ listing: 'files', sort: 'name', order: 'asc', after: [{}, 'x'] }) }],
      ['a position too long', { cursor: forged({ listing: 'files', sort: 'name', order: 'asc', after: ['a', 'b', 'c', 'd'] }) }],
      ['an unsafe number', { cursor: forged({ listing: 'files', sort: 'size', order: 'asc', after: [1e300, 'b', 'c'] }) }],
    ];
    for (const [what, query] of cases) {
      const listing = what === 'other listing' ? 'folders' : 'files';
      expect(
        refusal(() => listingPage(listing, query)),
        what,
      ).toBe('INVALID_CURSOR');
    }
  });
});
