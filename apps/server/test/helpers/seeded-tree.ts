import { createHash, randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database, FilesTable, FileVersionsTable, FoldersTable } from '../../src/db/schema.ts';
import { withNameKey } from '../../src/db/name-keys.ts';
import { newId } from '../../src/lib/ids.ts';

/** Rows per insert: within SQLite's and PostgreSQL's bound-parameter limits. */
const ROWS_PER_INSERT = 200;

/** Where the local blob store keeps a key (adapters/blob-store/local-blob-store.ts). */
export function localBlobPath(dataDir: string, key: string): string {
  return path.join(dataDir, 'blobs', key.slice(0, 2), key.slice(2, 4), key);
}

/** Writes a small blob as the local store would, and answers its row's columns. */
async function storeBlob(dataDir: string): Promise<{ blob_key: string; size: number; sha256: string; crc32: number }> {
  const key = newId();
  const bytes = randomBytes(32);
  const file = localBlobPath(dataDir, key);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, bytes);
  return { blob_key: key, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), crc32: 0 };
}

async function insertInPages<T extends 'folders' | 'files' | 'file_versions'>(
  db: Kysely<Database>,
  table: T,
  rows: (T extends 'folders' ? FoldersTable : T extends 'files' ? FilesTable : FileVersionsTable)[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    await db
      .insertInto(table)
      .values(rows.slice(start, start + ROWS_PER_INSERT) as never)
      .execute();
  }
}

export interface SeededTree {
  rootId: string;
  folderIds: string[];
  fileIds: string[];
  versionIds: string[];
  bytes: number;
}

/**
 * A folder tree of thousands of files, written straight into the database and the local
 * blob store of a server (faster than as many uploads), counted in the owner's storage as
 * uploads would be: `folders` sub-folders of `root`, each with `filesPerFolder` files, each
 * with `versionsPerFile` earlier versions replaced long ago (past any retention).
 */
export async function seedTree(options: {
  db: Kysely<Database>;
  dataDir: string;
  userId: string;
  parentId: string | null;
  name: string;
  folders: number;
  filesPerFolder: number;
  versionsPerFile?: number;
}): Promise<SeededTree> {
  const { db, dataDir, userId } = options;
  const now = new Date().toISOString();
  const longAgo = new Date(Date.UTC(2020, 0, 1)).toISOString();
  // withNameKey: the name's lookup and sort keys, as every write through the app stores them.
  const folder = (parentId: string | null, name: string): FoldersTable => ({
    id: newId(),
    user_id: userId,
    parent_id: parentId,
    ...withNameKey({ name }),
    created_at: now,
    updated_at: now,
    deleted_at: null,
    trashed_root: 0,
  });
  const root = folder(options.parentId, options.name);
  const folders = Array.from({ length: options.folders }, (_unused, index) => folder(root.id, `part-${index}`));
  const files: FilesTable[] = [];
  const versions: FileVersionsTable[] = [];
  let bytes = 0;
  for (const parent of folders) {
    for (let index = 0; index < options.filesPerFolder; index += 1) {
      const blob = await storeBlob(dataDir);
      const name = `file-${index}.txt`;
      const file: FilesTable = {
        id: newId(),
        user_id: userId,
        folder_id: parent.id,
        ...withNameKey({ name }),
        mimetype: 'text/plain',
        category: 'document',
        ...blob,
        created_at: now,
        updated_at: now,
        deleted_at: null,
        trashed_root: 0,
      };
      files.push(file);
      bytes += blob.size;
      for (let version = 0; version < (options.versionsPerFile ?? 0); version += 1) {
        const earlier = await storeBlob(dataDir);
        versions.push({
          id: newId(),
          file_id: file.id,
          user_id: userId,
          mimetype: 'text/plain',
          ...earlier,
          created_at: longAgo,
          replaced_at: new Date(Date.UTC(2020, 0, 1, 0, 0, version)).toISOString(),
        });
        bytes += earlier.size;
      }
    }
  }
  await db.transaction().execute(async (trx) => {
    await insertInPages(trx, 'folders', [root, ...folders]);
    await insertInPages(trx, 'files', files);
    await insertInPages(trx, 'file_versions', versions);
    await trx
      .updateTable('users')
      .set((eb) => ({ storage_used: eb('storage_used', '+', bytes) }))
      .where('id', '=', userId)
      .execute();
  });
  return {
    rootId: root.id,
    folderIds: folders.map((row) => row.id),
    fileIds: files.map((row) => row.id),
    versionIds: versions.map((row) => row.id),
    bytes,
  };
}
