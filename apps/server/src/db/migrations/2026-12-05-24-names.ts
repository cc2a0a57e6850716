import { type Kysely, type Migration, sql } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

/**
 * One rule for when two names in a folder are the same name, on both databases
 * (docs/decisions/0038-name-normalisation.md). The unique indexes compared lower(name):
 * SQLite's lower() folds ASCII only, so `Äpfel.txt` and `äpfel.txt` could live side by
 * side there, and a WebDAV lookup that lowered the name in JavaScript missed the row it had
 * just written. Each file and folder now keeps `name_key`, computed by the application
 * (contract nameKey: NFC, then Unicode lower case), and the unique indexes move onto it.
 *
 * Existing names are recomposed (NFC) and keyed here, in JavaScript, a page at a time.
 * Where two live siblings turn out to be one name (case outside ASCII on SQLite, a
 * decomposed twin anywhere), the oldest keeps it and each other is renamed `name (n).ext`,
 * as the app names an upload whose name is taken, so every row keeps key = nameKey(name).
 * Frozen copies of nameKey and numberedName: migrations import nothing of the app.
 */
const keyOf = (name: string): string => name.normalize('NFC').toLowerCase().normalize('NFC');

function numbered(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  const hasExtension = dot > 0 && dot < name.length - 1;
  return hasExtension ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
}

const PAGE = 1000;
const TABLES = [
  { table: 'folders', parent: 'parent_id' },
  { table: 'files', parent: 'folder_id' },
] as const;

type Table = (typeof TABLES)[number];

/** Sets every row's name_key, and its name where it was not composed, a page of ids at a time. */
async function keyRows(db: Kysely<any>, { table }: Table): Promise<void> {
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
    const values = sql.join(rows.map((row) => sql`(${row.id}, ${keyOf(row.name)})`));
    // VALUES names its columns column1, column2… on both databases.
    await sql`UPDATE ${sql.table(table)} SET name_key = v.column2 FROM (VALUES ${values}) AS v WHERE ${sql.ref(`${table}.id`)} = v.column1`.execute(
      db,
    );
    for (const row of rows.filter((one) => one.name.normalize('NFC') !== one.name)) {
      await db
        .updateTable(table)
        .set({ name: row.name.normalize('NFC') })
        .where('id', '=', row.id)
        .execute();
    }
    after = rows[rows.length - 1]!.id;
  }
}

/** Renames all but the oldest of each group of live siblings that share a key, to the first free `name (n)`. */
async function separateClashes(db: Kysely<any>, { table, parent }: Table): Promise<void> {
  const parentOf = sql<string>`coalesce(${sql.ref(parent)}, '')`;
  const groups: Array<{ user_id: string; parent: string; name_key: string }> = await db
    .selectFrom(table)
    .select(['user_id', parentOf.as('parent'), 'name_key'])
    .where('deleted_at', 'is', null)
    .groupBy(['user_id', parentOf, 'name_key'])
    .having(sql`count(*)`, '>', 1)
    .execute();
  for (const group of groups) {
    const siblings = db
      .selectFrom(table)
      .where('user_id', '=', group.user_id)
      .where(parentOf, '=', group.parent)
      .where('deleted_at', 'is', null);
    const twins: Array<{ id: string; name: string }> = await siblings
      .select(['id', 'name'])
      .where('name_key', '=', group.name_key)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    for (const twin of twins.slice(1)) {
      for (let n = 1; ; n += 1) {
        const candidate = numbered(twin.name, n);
        const taken = await siblings.select('id').where('name_key', '=', keyOf(candidate)).executeTakeFirst();
        if (taken) continue;
        await db
          .updateTable(table)
          .set({ name: candidate, name_key: keyOf(candidate) })
          .where('id', '=', twin.id)
          .execute();
        break;
      }
    }
  }
}

async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  for (const entry of TABLES) {
    const { table, parent } = entry;
    await sql`DROP INDEX ${sql.raw(`${table}_live_name_idx`)}`.execute(db);
    await db.schema.alterTable(table).addColumn('name_key', 'varchar(1024)').execute();
    await keyRows(db, entry);
    await separateClashes(db, entry);
    await sql`CREATE UNIQUE INDEX ${sql.raw(`${table}_live_name_key_idx`)} ON ${sql.table(table)} (user_id, coalesce(${sql.ref(parent)}, ''), name_key) WHERE deleted_at IS NULL`.execute(
      db,
    );
    if (dialect === 'postgres') {
      await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN name_key SET NOT NULL`.execute(db);
    } else {
      // SQLite cannot add NOT NULL to a column it has: a row written without its key is refused here instead.
      await sql`CREATE TRIGGER ${sql.raw(`${table}_name_key_required`)} BEFORE INSERT ON ${sql.table(table)} WHEN NEW.name_key IS NULL
        BEGIN SELECT RAISE(ABORT, ${sql.lit(`${table}.name_key is required (contract nameKey)`)}); END`.execute(db);
    }
  }
}

async function down(db: Kysely<any>, dialect: Dialect): Promise<void> {
  for (const { table, parent } of TABLES) {
    if (dialect === 'sqlite') await sql`DROP TRIGGER ${sql.raw(`${table}_name_key_required`)}`.execute(db);
    await sql`DROP INDEX ${sql.raw(`${table}_live_name_key_idx`)}`.execute(db);
    await db.schema.alterTable(table).dropColumn('name_key').execute();
    await sql`CREATE UNIQUE INDEX ${sql.raw(`${table}_live_name_idx`)} ON ${sql.table(table)} (user_id, coalesce(${sql.ref(parent)}, ''), lower(name)) WHERE deleted_at IS NULL`.execute(
      db,
    );
  }
}

export function namesMigration(dialect: Dialect): Migration {
  // PostgreSQL runs each migration in a transaction; SQLite's are wrapped here, so a failure leaves no half-keyed table.
  const inTransaction = (work: (db: Kysely<any>) => Promise<void>) => (db: Kysely<any>) =>
    dialect === 'postgres' ? work(db) : db.transaction().execute(work);
  return { up: inTransaction((db) => up(db, dialect)), down: inTransaction((db) => down(db, dialect)) };
}
