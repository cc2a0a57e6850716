import { type RawBuilder, sql } from 'kysely';
import type { Dialect } from './database.ts';

const UNITS = [
  [1024, 'KB'],
  [1024 ** 2, 'MB'],
  [1024 ** 3, 'GB'],
  [1024 ** 4, 'TB'],
] as const;

/** `size / divisor` rounded half up to two decimals, trailing zeros dropped: exact integer arithmetic. */
function scaled(size: RawBuilder<unknown>, divisor: number, unit: string): RawBuilder<string> {
  const hundredths = sql`((${size} * 100 + ${sql.lit(divisor / 2)}) / ${sql.lit(divisor)})`;
  const fraction = sql`(${hundredths} % 100)`;
  return sql<string>`(${hundredths} / 100) || CASE
      WHEN ${fraction} = 0 THEN ''
      WHEN ${fraction} % 10 = 0 THEN '.' || (${fraction} / 10)
      WHEN ${fraction} < 10 THEN '.0' || ${fraction}
      ELSE '.' || ${fraction} END || ${sql.lit(` ${unit}`)}`;
}

/**
 * formatBytes (contract/format.ts) as SQL that SQLite and PostgreSQL evaluate alike, so a
 * listing's JSON can be built by the database. Sizes are integers below 2^53, so
 * `size * 100` fits a 64-bit integer. Tested against formatBytes on both databases.
 */
export function sqlFormatBytes(size: RawBuilder<unknown>): RawBuilder<string> {
  const [kb, mb, gb, tb] = UNITS.map(([divisor, unit]) => scaled(size, divisor, unit));
  return sql<string>`CASE
    WHEN ${size} <= 0 THEN '0 Bytes'
    WHEN ${size} < 1024 THEN ${size} || ' Bytes'
    WHEN ${size} < ${sql.lit(1024 ** 2)} THEN ${kb}
    WHEN ${size} < ${sql.lit(1024 ** 3)} THEN ${mb}
    WHEN ${size} < ${sql.lit(1024 ** 4)} THEN ${gb}
    ELSE ${tb} END`;
}

/** One JSON array of objects (keys as given, values as SQL), ordered, as text; '[]' when empty. */
export function sqlJsonArray(dialect: Dialect, fields: Record<string, RawBuilder<unknown>>, orderBy: RawBuilder<unknown>): RawBuilder<string> {
  const pairs = sql.join(Object.entries(fields).map(([key, value]) => sql`${sql.lit(key)}, ${value}`));
  return dialect === 'postgres'
    ? sql<string>`coalesce(json_agg(json_build_object(${pairs}) ORDER BY ${orderBy})::text, '[]')`
    : sql<string>`json_group_array(json_object(${pairs}) ORDER BY ${orderBy})`;
}
