/**
 * Rows of pages read one after another, each page starting after the last row of the one
 * before (keyset pagination: `page` orders by a unique key and reads the rows after `after`),
 * given as items one at a time: a listing of any size holds one page of rows.
 */
export async function* inPages<Row, Item>(
  size: number,
  page: (after: Row | null, limit: number) => Promise<Row[]>,
  present: (row: Row) => Item,
): AsyncGenerator<Item> {
  let after: Row | null = null;
  for (;;) {
    const rows = await page(after, size);
    for (const row of rows) yield present(row);
    const last = rows.at(-1);
    if (!last || rows.length < size) return;
    after = last;
  }
}
