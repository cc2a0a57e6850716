import { type Kysely, sql } from 'kysely';

/**
 * Emptying Trash at a cost per item that does not grow with the Trash
 * (docs/decisions/0036-trash-at-scale.md). A purge walks the user's trashed files in id
 * order, a page at a time, on files_trashed_idx. Deleting a file or a folder makes the
 * database look for the rows pointing at it (shares, sub-folders, the files in a folder) to
 * cascade; no index led with these columns, so every deleted row read the whole of that
 * table: all shares for every file, all files and all folders for every folder.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX files_trashed_idx ON files (user_id, id) WHERE deleted_at IS NOT NULL`.execute(db);
  await db.schema.createIndex('shares_file_idx').on('shares').column('file_id').execute();
  await db.schema.createIndex('shares_folder_idx').on('shares').column('folder_id').execute();
  await db.schema.createIndex('files_folder_idx').on('files').column('folder_id').execute();
  await db.schema.createIndex('folders_parent_idx').on('folders').column('parent_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of ['folders_parent_idx', 'files_folder_idx', 'shares_folder_idx', 'shares_file_idx', 'files_trashed_idx'])
    await db.schema.dropIndex(index).execute();
}
