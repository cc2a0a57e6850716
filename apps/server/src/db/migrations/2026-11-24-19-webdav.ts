import type { Kysely } from 'kysely';

/**
 * WebDAV (docs/decisions/0027-webdav.md): the dead properties clients set with PROPPATCH,
 * kept with the item they belong to (its id, so a move keeps them and a purge takes them),
 * and the write locks of LOCK, kept here so every node sees and honours them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('dav_properties')
    .addColumn('user_id', 'varchar(64)', (col) => col.notNull().references('users.id').onDelete('cascade'))
    /** The file's or folder's id, or "/" for the root of My Files. */
    .addColumn('resource_id', 'varchar(64)', (col) => col.notNull())
    .addColumn('file_id', 'varchar(64)', (col) => col.references('files.id').onDelete('cascade'))
    .addColumn('folder_id', 'varchar(64)', (col) => col.references('folders.id').onDelete('cascade'))
    .addColumn('namespace', 'varchar(1024)', (col) => col.notNull())
    .addColumn('name', 'varchar(255)', (col) => col.notNull())
    /** The property's content as XML, every element carrying its own namespace declaration. */
    .addColumn('value', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('dav_properties_pk', ['user_id', 'resource_id', 'namespace', 'name'])
    .execute();
  await db.schema.createIndex('dav_properties_file_idx').on('dav_properties').column('file_id').execute();
  await db.schema.createIndex('dav_properties_folder_idx').on('dav_properties').column('folder_id').execute();

  await db.schema
    .createTable('dav_locks')
    /** The lock token's URN: it is a capability only together with the owner's credentials. */
    .addColumn('token', 'varchar(128)', (col) => col.primaryKey())
    .addColumn('user_id', 'varchar(64)', (col) => col.notNull().references('users.id').onDelete('cascade'))
    /** The locked path under /dav/, each segment lower-cased as names compare ("/" for the root). */
    .addColumn('path_key', 'varchar(4096)', (col) => col.notNull())
    /** The path as the client named it, for the lock's root in answers. */
    .addColumn('href', 'varchar(8192)', (col) => col.notNull())
    .addColumn('depth_infinity', 'integer', (col) => col.notNull())
    .addColumn('exclusive', 'integer', (col) => col.notNull())
    /** The client's owner element as XML, or empty. */
    .addColumn('owner', 'text', (col) => col.notNull())
    .addColumn('timeout_seconds', 'integer', (col) => col.notNull())
    .addColumn('expires_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('dav_locks_user_idx').on('dav_locks').columns(['user_id', 'path_key']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('dav_locks').execute();
  await db.schema.dropTable('dav_properties').execute();
}
