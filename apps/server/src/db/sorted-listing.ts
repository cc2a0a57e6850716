import type { ListingSort } from '@cloudvault/contract/sort-keys';
import { type RawBuilder, sql } from 'kysely';
import type { ListingPage, ListingPosition } from '../lib/listing-pages.ts';
import type { Dialect } from './database.ts';

/** A sorted listing's order: what it sorts by and which way. */
export type ListingSortOrder = Pick<ListingPage, 'sort' | 'order'>;
type SortedColumn = 'size' | 'updated_at' | 'mimetype' | 'sort_key' | 'id';

/**
 * The column each sort orders by before the name (sort_key) and id, per table; null:
 * by name alone. Folders have no size or type, so those sorts order them by name.
 * Each order is an index of migration 2026-12-06-26, `<table>_live_by_<sort>_idx`.
 */
const SORTED_COLUMN = {
  folders: { name: null, size: null, modified: 'updated_at', type: null },
  files: { name: null, size: 'size', modified: 'updated_at', type: 'mimetype' },
} as const satisfies Record<'files' | 'folders', Record<ListingSort, string | null>>;

/** The columns a sort orders by, as the index has them. */
export function sortedColumns(table: 'files' | 'folders', sort: ListingSort): SortedColumn[] {
  const column = SORTED_COLUMN[table][sort];
  return column === null ? ['sort_key', 'id'] : [column, 'sort_key', 'id'];
}

/** A row's place in the sorted order (where the page after it starts); size as a number, whatever the driver gives. */
export function positionOf(table: 'files' | 'folders', sort: ListingSort, row: Partial<Record<SortedColumn, unknown>>): ListingPosition {
  return sortedColumns(table, sort).map((column) => (column === 'size' ? Number(row[column]) : String(row[column] ?? '')));
}

/** Whether a position (from a client's cursor) has the values this table's sort orders by: a number for size, text for the rest. */
export function fitsPosition(table: 'files' | 'folders', sort: ListingSort, position: ListingPosition): boolean {
  const columns = sortedColumns(table, sort);
  return (
    position.length === columns.length && columns.every((column, i) => typeof position[i] === (column === 'size' ? 'number' : 'string'))
  );
}

/**
 * The sorted listing's order and page start as SQL, phrased as the index is built so that
 * it finds the page's first row and reads on in order: text compared as bytes (PostgreSQL's
 * "C" collation, SQLite's default), the same order on both databases.
 */
export function sqlListingOrder(
  dialect: Dialect,
  table: 'files' | 'folders',
  { sort, order }: ListingSortOrder,
): { orderBy: RawBuilder<unknown>; after(position: ListingPosition): RawBuilder<boolean> } {
  const columns = sortedColumns(table, sort).map((column) =>
    // sort_key is a "C" column already; size is a number.
    dialect === 'postgres' && (column === 'updated_at' || column === 'mimetype' || column === 'id')
      ? sql.raw(`${table}.${column} COLLATE "C"`)
      : sql.ref(`${table}.${column}`),
  );
  const direction = sql.raw(order === 'asc' ? 'ASC' : 'DESC');
  return {
    orderBy: sql.join(columns.map((column) => sql`${column} ${direction}`)),
    // Row values compare column by column, as the order does.
    after: (position) => sql<boolean>`(${sql.join(columns)}) ${sql.raw(order === 'asc' ? '>' : '<')} (${sql.join(position)})`,
  };
}
