import { type Kysely, type Migration, sql } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

/**
 * Sorted, paged folder listings (docs/api.md#names-and-listings): each file and folder
 * keeps `sort_key`, the key its name sorts by in natural order ("file 2" before "file 10",
 * case-insensitive), computed by the application (contract naturalSortKey) whenever a name
 * is written, because SQLite has no collation that orders numbers by value. The keys are
 * compared byte by byte on both databases: SQLite's BINARY, PostgreSQL's "C" collation
 * (a database's own collation may ignore spaces and punctuation).
 *
 * One index per order a listing can ask for, each ending in (sort_key, id) so that ties
 * sort by name and then id, and a page starts where the last one ended without OFFSET:
 * folders by name and by modification time; files by name, size, modification time and
 * type (mimetype). Existing rows are keyed here a page of ids at a time.
 * A frozen copy of naturalSortKey: migrations import nothing of the app.
 */
const sortKeyOf = (name: string): string =>
  name
    .normalize('NFC')
    .toLowerCase()
    .normalize('NFC')
    .replace(/[0-9]+/g, (digits) => {
      const number = digits.replace(/^0+(?=[0-9])/, '');
      return `${String(number.length).padStart(3, '0')}${number}`;
    });

const PAGE = 1000;
const TABLES = [
  { table: 'folders', parent: 'parent_id', orders: { name: [], modified: ['updated_at'] } },
  { table: 'files', parent: 'folder_id', orders: { name: [], size: ['size'], modified: ['updated_at'], type: ['mimetype'] } },
] as const;

/** Sets every row's sort_key, a page of ids at a time. */
async function keyRows(db: Kysely<any>, table: string): Promise<void> {
  let after = '';
  for (;;) {
    const rows: Array<{ id: string; name: string }> = await db
      .selectFrom(table)
      .select(['id', 'name'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE)
      .execute();
    if (rows.length === 0) return;
    const values = sql.join(rows.map((row) => sql`(${row.id}, ${sortKeyOf(row.name)})`));
    // VALUES names its columns column1, column2… on both databases.
    await sql`UPDATE ${sql.table(table)} SET sort_key = v.column2 FROM (VALUES ${values}) AS v WHERE ${sql.ref(`${table}.id`)} = v.column1`.execute(
      db,
    );
    after = rows[rows.length - 1]!.id;
  }
}

async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  // Text columns an index orders by compare as bytes on PostgreSQL too, as they do on SQLite.
  const bytewise = (column: string) => (dialect === 'postgres' && column !== 'size' ? sql.raw(`${column} COLLATE "C"`) : sql.ref(column));
  for (const { table, parent, orders } of TABLES) {
    const type = dialect === 'postgres' ? sql.raw('varchar(2048) COLLATE "C"') : sql.raw('varchar(2048)');
    await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN sort_key ${type}`.execute(db);
    await keyRows(db, table);
    for (const [order, columns] of Object.entries(orders)) {
      const ordered = sql.join([...columns.map(bytewise), sql.ref('sort_key'), bytewise('id')]);
      await sql`CREATE INDEX ${sql.raw(`${table}_live_by_${order}_idx`)} ON ${sql.table(table)}
        (user_id, coalesce(${sql.ref(parent)}, ''), ${ordered}) WHERE deleted_at IS NULL`.execute(db);
    }
  }
}

async function down(db: Kysely<any>): Promise<void> {
  for (const { table, orders } of TABLES) {
    for (const order of Object.keys(orders)) await sql`DROP INDEX ${sql.raw(`${table}_live_by_${order}_idx`)}`.execute(db);
    await db.schema.alterTable(table).dropColumn('sort_key').execute();
  }
}

export function listingSortKeysMigration(dialect: Dialect): Migration {
  // PostgreSQL runs each migration in a transaction; SQLite's are wrapped here, so a failure leaves no half-keyed table.
  const inTransaction = (work: (db: Kysely<any>) => Promise<void>) => (db: Kysely<any>) =>
    dialect === 'postgres' ? work(db) : db.transaction().execute(work);
  return { up: inTransaction((db) => up(db, dialect)), down: inTransaction((db) => down(db)) };
}
