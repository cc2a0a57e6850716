import { Type } from 'typebox';
import { LISTING_ORDERS, LISTING_PAGE_MAX, LISTING_SORTS, type ListingOrder, type ListingSort } from './sort-keys.ts';
import { NullableString } from './common.ts';

/** The sort a listing is in: by name in natural order ("file 2" before "file 10"), size, modification time or type (mimetype). */
export const ListingSortField = Type.Unsafe<ListingSort>({ type: 'string', enum: [...LISTING_SORTS] });
export const ListingOrderField = Type.Unsafe<ListingOrder>({ type: 'string', enum: [...LISTING_ORDERS] });

/**
 * The optional query fields of a folder listing that sort and page it
 * (docs/api.md#names-and-listings). Without any of them a listing is every item by name,
 * as it always was. Each page's items come after the last one of the page before (the
 * cursor), so a page never repeats or skips an item, whatever changes meanwhile.
 */
export const ListingPageFields = {
  /** Default `name`; folders have no size or type and sort by name then. */
  sort: Type.Optional(ListingSortField),
  /** Default `asc`. */
  order: Type.Optional(ListingOrderField),
  /** Items per page, 1 to LISTING_PAGE_MAX; absent: every item, in order. The answer then carries `nextCursor`. */
  limit: Type.Optional(Type.String({ maxLength: 8, description: `1 to ${LISTING_PAGE_MAX}` })),
  /** A page's `nextCursor`, to get the page after it (with the same sort and order). */
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 16_384, pattern: '^[A-Za-z0-9_-]+$' })),
};

/** In a paged answer (one with `limit`): the cursor of the next page, null after the last. */
export const NextCursor = Type.Optional(NullableString(Type.String()));
