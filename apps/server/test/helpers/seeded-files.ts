import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { BlobStore } from '../../src/adapters/blob-store/blob-store.ts';
import type { Database, FilesTable, FoldersTable } from '../../src/db/schema.ts';
import { withNameKey } from '../../src/db/name-keys.ts';
import { newId } from '../../src/lib/ids.ts';

/** A server's database and blob store: a TestServer's container's, or those of a server process's data. */
export interface SeedTarget {
  db: Kysely<Database>;
  blobs: Pick<BlobStore, 'put'>;
}

/** Rows per insert: within SQLite's and PostgreSQL's bound-parameter limits. */
const ROWS_PER_INSERT = 200;
/** Blobs written at once: the store's own puts, without the upload route's request, parse and transaction per file. */
const PUTS_AT_ONCE = 16;

/**
 * Files of a folder put straight into the server's blob store (local disk or S3, whichever it
 * runs on) and its database, counted in the owner's storage as uploads would be: for a test
 * about what is read back (a zip of hundreds of members), not about how files come in. Each
 * row takes its size and checksums from the store's own put, as an upload's does.
 */
export async function seedFiles(
  { db, blobs }: SeedTarget,
  options: { userId: string; folderId: string; files: Map<string, Buffer> },
): Promise<void> {
  const now = new Date().toISOString();
  const entries = [...options.files];
  const rows: FilesTable[] = [];
  for (let start = 0; start < entries.length; start += PUTS_AT_ONCE) {
    const written = await Promise.all(
      entries.slice(start, start + PUTS_AT_ONCE).map(async ([name, bytes]): Promise<FilesTable> => {
        const key = newId();
        const stored = await blobs.put(key, Readable.from([bytes]));
        return {
          id: newId(),
          user_id: options.userId,
          folder_id: options.folderId,
          ...withNameKey({ name }),
          mimetype: 'application/octet-stream',
          category: 'other',
          ...stored,
          blob_key: key,
          created_at: now,
          updated_at: now,
          deleted_at: null,
          trashed_root: 0,
        };
      }),
    );
    rows.push(...written);
  }
  const bytes = rows.reduce((total, row) => total + row.size, 0);
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
      await trx
        .insertInto('files')
        .values(rows.slice(start, start + ROWS_PER_INSERT))
        .execute();
    }
    await trx
      .updateTable('users')
      .set((eb) => ({ storage_used: eb('storage_used', '+', bytes) }))
      .where('id', '=', options.userId)
      .execute();
  });
}

/**
 * Empty sub-folders of `parentId` written straight into the database, for a test about what is
 * read back (a zip's pages of members), not about how folders are made: a thousand made through
 * the API took most of such a test's time.
 */
export async function seedFolders(db: Kysely<Database>, options: { userId: string; parentId: string; names: string[] }): Promise<void> {
  const now = new Date().toISOString();
  const rows = options.names.map((name): FoldersTable => ({
    id: newId(),
    user_id: options.userId,
    parent_id: options.parentId,
    ...withNameKey({ name }),
    created_at: now,
    updated_at: now,
    deleted_at: null,
    trashed_root: 0,
  }));
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
      await trx
        .insertInto('folders')
        .values(rows.slice(start, start + ROWS_PER_INSERT))
        .execute();
    }
  });
}
