import { formatBytes } from '@cloudvault/contract/format';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlFormatBytes, sqlJsonArray } from '../src/db/json-listing.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const KiB = 1024;
/** Unit boundaries, values that round up into the next unit, exact half-hundredths (ties) and large sizes. */
const SIZES = [
  0, 1, 999, 1023, KiB, KiB + 1, 1536, 1552, 1541, 10 * KiB, 100 * KiB + 5, KiB ** 2 - 6, KiB ** 2 - 5, KiB ** 2 - 1, KiB ** 2,
  // size * 100 / 1024 ends in exactly half a hundredth (1.125, 1.375, …): ties round up.
  ...Array.from({ length: 8 }, (_, i) => 1152 + 256 * i),
  5 * KiB ** 2 + 123_456, KiB ** 3 - 1, KiB ** 3, 3.5 * KiB ** 3, KiB ** 4 - 1, KiB ** 4, 7 * KiB ** 4 + 99, 2 ** 53 - 1,
];

describe('listing JSON built by the database', () => {
  it('formats sizes exactly as formatBytes does', async () => {
    const { db } = server.container.database;
    for (const size of SIZES) {
      const { rows } = await sql<{ formatted: string }>`select ${sqlFormatBytes(sql`cast(${sql.lit(size)} as bigint)`)} as formatted`.execute(db);
      expect(`${size}: ${rows[0]?.formatted}`).toBe(`${size}: ${formatBytes(size)}`);
    }
  });

  it('builds an ordered array of objects, and [] when there are no rows', async () => {
    const { db, dialect } = server.container.database;
    const pick = (where: ReturnType<typeof sql>) =>
      sql<{ json: string }>`select ${sqlJsonArray(dialect, { n: sql.ref('n'), label: sql`'item ' || n` }, sql`n desc`)} as json
        from (select 1 as n union all select 2 union all select 3) numbers where ${where}`.execute(db);
    expect(JSON.parse((await pick(sql`n > 0`)).rows[0]!.json)).toEqual([
      { n: 3, label: 'item 3' },
      { n: 2, label: 'item 2' },
      { n: 1, label: 'item 1' },
    ]);
    expect(JSON.parse((await pick(sql`n > 5`)).rows[0]!.json)).toEqual([]);
  });
});
