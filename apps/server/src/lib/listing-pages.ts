import { LISTING_ORDERS, LISTING_PAGE_MAX, LISTING_SORTS, type ListingOrder, type ListingSort } from '@cloudvault/contract/sort-keys';
import { badRequest } from './errors.ts';

/**
 * Where a page of a sorted listing starts: the values the last item of the page before
 * sorted by, in the listing's order (a sorted column if any, then the name's sort key, then
 * the id, which makes it unique). Keyset paging: the next page is the items after it, so
 * items added or removed meanwhile never make a page repeat or skip one.
 */
export type ListingPosition = Array<string | number>;

/** What a listing request asks for: an order, and one page of it (`limit`) or all of it. */
export interface ListingPage {
  sort: ListingSort;
  order: ListingOrder;
  /** Items in the page; null: every item, in order. */
  limit: number | null;
  /** Where the page starts (from the cursor); null: at the first item. */
  after: ListingPosition | null;
}

/** The query fields of a sortable listing (contract listing ListingPageFields). */
export interface ListingPageQuery {
  sort?: ListingSort;
  order?: ListingOrder;
  limit?: string;
  cursor?: string;
}

/** Longest text a cursor may carry as one value: the longest sort key is about 650 characters. */
const CURSOR_TEXT_MAX = 4096;

const invalidCursor = () =>
  badRequest('The cursor is not one this listing gave out: start again from the first page without a cursor', 'INVALID_CURSOR');

/** Which listing a cursor pages: a folder's files or its sub-folders. */
export type ListingName = 'files' | 'folders';

/**
 * The cursor given out for the page after `position`: opaque to clients (base64url of a
 * small JSON), and tied to its listing, sort and order, so it cannot continue another.
 */
export function encodeListingCursor(
  listing: ListingName,
  { sort, order }: Pick<ListingPage, 'sort' | 'order'>,
  position: ListingPosition,
): string {
  return Buffer.from(JSON.stringify({ listing, sort, order, after: position })).toString('base64url');
}

function decodeListingCursor(cursor: string, listing: ListingName, sort: ListingSort, order: ListingOrder): ListingPosition {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (typeof decoded !== 'object' || decoded === null) throw invalidCursor();
  const fields = decoded as Record<string, unknown>;
  if (fields.listing !== listing) throw invalidCursor();
  if (fields.sort !== sort || fields.order !== order) {
    throw badRequest('The cursor belongs to a listing in another order: send the sort and order it was given with', 'INVALID_CURSOR');
  }
  const after = fields.after;
  const isValue = (value: unknown) =>
    (typeof value === 'string' && value.length <= CURSOR_TEXT_MAX) || (typeof value === 'number' && Number.isSafeInteger(value));
  if (!Array.isArray(after) || after.length < 2 || after.length > 3 || !after.every(isValue)) throw invalidCursor();
  return after as ListingPosition;
}

/**
 * The page a listing query asks for, or null when it names none of sort, order, limit or
 * cursor: then the listing answers as it always has (every item, by name). Sort and order
 * default to the name, ascending; a cursor must come with the sort and order it was given for.
 */
export function listingPage(listing: ListingName, query: ListingPageQuery): ListingPage | null {
  const { sort, order, limit, cursor } = query;
  if (sort === undefined && order === undefined && limit === undefined && cursor === undefined) return null;
  const page: ListingPage = { sort: sort ?? LISTING_SORTS[0], order: order ?? LISTING_ORDERS[0], limit: null, after: null };
  if (limit !== undefined) {
    const count = /^[0-9]{1,4}$/.test(limit) ? Number(limit) : NaN;
    if (!(count >= 1 && count <= LISTING_PAGE_MAX)) {
      throw badRequest(`limit must be a whole number from 1 to ${LISTING_PAGE_MAX}`, 'INVALID_LIMIT');
    }
    page.limit = count;
  }
  if (cursor !== undefined) page.after = decodeListingCursor(cursor, listing, page.sort, page.order);
  return page;
}
