import { nameKey } from './validation.ts';

// Values without the schemas, so the web app can read them without bundling TypeBox.

/** What a folder listing can be sorted by (docs/api.md#names-and-listings). */
export const LISTING_SORTS = ['name', 'size', 'modified', 'type'] as const;
export type ListingSort = (typeof LISTING_SORTS)[number];
export const LISTING_ORDERS = ['asc', 'desc'] as const;
export type ListingOrder = (typeof LISTING_ORDERS)[number];
/** The most items one page of a listing holds. */
export const LISTING_PAGE_MAX = 1000;

/**
 * The key a name sorts by in natural order: "file 2" before "file 10", case-insensitive.
 * nameKey(name) (composed, lower-cased) with each run of ASCII digits written as its
 * length in three digits and then the number without leading zeros, so that comparing the
 * keys byte by byte (SQLite's BINARY, PostgreSQL's "C" collation, Buffer.compare) compares
 * the numbers by value: a shorter number is a smaller one. This is zero-padding every
 * number to the widest one a name can hold (255 digits) without storing the zeros. Names
 * that differ only in leading zeros ("a01", "a1") share a key; listings break such ties by id.
 */
export function naturalSortKey(name: string): string {
  return nameKey(name).replace(/[0-9]+/g, (digits) => {
    const number = digits.replace(/^0+(?=[0-9])/, '');
    return `${String(number.length).padStart(3, '0')}${number}`;
  });
}
