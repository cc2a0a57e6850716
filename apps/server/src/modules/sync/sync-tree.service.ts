import type { SyncTreeFile, SyncTreeFolder, SyncTreeLine } from '@cloudvault/contract/sync';
import { inPages } from '../../db/pages.ts';
import type { ChangesService } from '../changes/changes.service.ts';
import type { FoldersService } from '../folders/folders.service.ts';
import type { SyncTreeRepository, TreeFileRow, TreeFolderRow, TreeScope } from './sync-tree.repository.ts';

/** Rows read per query: a page is a few hundred kB of lines at most. */
const TREE_PAGE_ROWS = 1000;

const presentFolder = (row: TreeFolderRow): SyncTreeFolder => ({
  kind: 'folder',
  id: row.id,
  parentId: row.parent_id,
  name: row.name,
  updatedAt: row.updated_at,
});

const presentFile = (row: TreeFileRow): SyncTreeFile => ({
  kind: 'file',
  id: row.id,
  parentId: row.folder_id,
  name: row.name,
  size: Number(row.size),
  contentHash: row.sha256,
  updatedAt: row.updated_at,
});

export interface SyncTreeServiceDeps {
  tree: SyncTreeRepository;
  folders: Pick<FoldersService, 'readableFolder'>;
  changes: Pick<ChangesService, 'latest'>;
}

/**
 * GET /api/sync/tree (docs/api.md#sync): every live item under the caller's root or a folder
 * they can read, one line each, read a page at a time so no listing is ever held whole.
 */
export function createSyncTreeService({ tree, folders, changes }: SyncTreeServiceDeps) {
  async function* lines(scope: TreeScope, cursor: string): AsyncGenerator<SyncTreeLine> {
    yield { cursor };
    let count = 0;
    for await (const folder of inPages(
      TREE_PAGE_ROWS,
      (after, limit) => tree.foldersPage(scope, after?.id ?? null, limit),
      presentFolder,
    )) {
      count += 1;
      yield folder;
    }
    for await (const file of inPages(TREE_PAGE_ROWS, (after, limit) => tree.filesPage(scope, after?.id ?? null, limit), presentFile)) {
      count += 1;
      yield file;
    }
    yield { end: true, count };
  }

  return {
    /**
     * Checks the folder (404 unless the caller can read it) and takes the feed's cursor
     * before anything is read, so a change made during the read is in the feed after it;
     * then the lines, read as they are sent.
     */
    async open(userId: string, folderId: string | undefined): Promise<AsyncIterable<SyncTreeLine>> {
      const ownerId = folderId === undefined ? userId : (await folders.readableFolder(userId, folderId)).ownerId;
      const { cursor } = await changes.latest(userId);
      return lines({ ownerId, rootId: folderId ?? null }, cursor);
    },
  };
}

export type SyncTreeService = ReturnType<typeof createSyncTreeService>;
