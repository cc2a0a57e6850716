import type { Kysely } from 'kysely';

/**
 * The change journal (docs/decisions/0060-change-journal.md, docs/api.md#change-feed).
 *
 * `changes`: one row per change an account's feed shows, numbered per account (`seq`) in
 * commit order. An item's change is written to its owner's feed and, with `share_id`, to
 * the feed of each member of a private share that reaches it. The row carries the item's
 * state after the change, so reading a page is one range scan of the primary key.
 *
 * `change_heads`: per account, the last number given (`seq`) and the last number the
 * retention job removed (`pruned_through`): a cursor before it answers 410. The row is
 * updated last in every transaction that writes the journal, which holds it until commit,
 * so an account's numbers commit in order on PostgreSQL too.
 *
 * `folders.tree_tag`: changes whenever anything below the folder changes (WebDAV getetag).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('change_heads')
    .addColumn('user_id', 'varchar(64)', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('seq', 'bigint', (col) => col.notNull())
    .addColumn('pruned_through', 'bigint', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('changes')
    .addColumn('user_id', 'varchar(64)', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('seq', 'bigint', (col) => col.notNull())
    .addColumn('op', 'varchar(16)', (col) => col.notNull())
    .addColumn('kind', 'varchar(8)', (col) => col.notNull())
    .addColumn('item_id', 'varchar(64)', (col) => col.notNull())
    .addColumn('parent_id', 'varchar(64)')
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('share_id', 'varchar(64)')
    .addColumn('size', 'bigint')
    .addColumn('content_hash', 'varchar(64)')
    .addColumn('modified_at', 'varchar(32)')
    .addColumn('at', 'varchar(32)', (col) => col.notNull())
    .addPrimaryKeyConstraint('changes_pk', ['user_id', 'seq'])
    .execute();
  await db.schema.createIndex('changes_at_idx').on('changes').column('at').execute();
  await db.schema
    .alterTable('folders')
    .addColumn('tree_tag', 'varchar(32)', (col) => col.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('folders').dropColumn('tree_tag').execute();
  await db.schema.dropTable('changes').execute();
  await db.schema.dropTable('change_heads').execute();
}
