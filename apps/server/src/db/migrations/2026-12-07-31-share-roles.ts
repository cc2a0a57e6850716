import { type Kysely, sql } from 'kysely';

/**
 * Shares people work in (docs/decisions/0061-share-roles.md).
 *
 * `shares` gains what a share lets its holder do:
 * - `role`: for a private share `viewer` or `editor`; for a link `view`, `view-only`,
 *   `upload` or `edit`. Shares made before roles keep what they did: `viewer` and `view`.
 * - `may_reshare`: whether a person the folder is shared with may share it further (off).
 * - `download_limit`: downloads after which a link answers 410 (null: no limit), counted by
 *   the existing `download_count`; `upload_count`: files received through the link.
 * - `message`: what an upload link's visitors read above the drop zone.
 *
 * `files.deleted_by` and `folders.deleted_by`: who put an item in Trash when it was not its
 * owner (an editor of a shared folder); null for the owner's own deletions.
 *
 * `folder_activity`: who did what inside a folder of an owner (uploaded, renamed, moved,
 * deleted), read for a shared folder by its owner and members over the folder's subtree.
 * The actor is an account (`actor_id`) or a link's visitor (`actor_id` null, `actor_name`
 * the name they gave). It goes with its folder and with the owner's account.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('shares')
    .addColumn('role', 'varchar(16)', (col) => col.notNull().defaultTo('viewer'))
    .execute();
  await sql`UPDATE shares SET role = 'view' WHERE kind = 'link'`.execute(db);
  await db.schema
    .alterTable('shares')
    .addColumn('may_reshare', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('shares').addColumn('download_limit', 'integer').execute();
  await db.schema
    .alterTable('shares')
    .addColumn('upload_count', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('shares').addColumn('message', 'varchar(1000)').execute();

  await db.schema.alterTable('files').addColumn('deleted_by', 'varchar(64)').execute();
  await db.schema.alterTable('folders').addColumn('deleted_by', 'varchar(64)').execute();

  await db.schema
    .createTable('folder_activity')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('owner_id', 'varchar(64)', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('folder_id', 'varchar(64)', (col) => col.notNull().references('folders.id').onDelete('cascade'))
    .addColumn('actor_id', 'varchar(64)', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('actor_name', 'varchar(200)', (col) => col.notNull())
    .addColumn('action', 'varchar(32)', (col) => col.notNull())
    .addColumn('item_kind', 'varchar(8)', (col) => col.notNull())
    .addColumn('item_name', 'varchar(1024)', (col) => col.notNull())
    .addColumn('details', 'text', (col) => col.notNull().defaultTo('{}'))
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('folder_activity_folder_idx').on('folder_activity').columns(['folder_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('folder_activity').execute();
  await db.schema.alterTable('folders').dropColumn('deleted_by').execute();
  await db.schema.alterTable('files').dropColumn('deleted_by').execute();
  for (const column of ['message', 'upload_count', 'download_limit', 'may_reshare', 'role']) {
    await db.schema.alterTable('shares').dropColumn(column).execute();
  }
}
