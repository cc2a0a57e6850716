/**
 * The drive side of a pass over the remote/ parts: the mirror (change feed, or a listing),
 * the tree operations, and the transfers, whose downloads are put in place on disk by
 * local/place.ts once their hash is checked.
 */
import path from 'node:path';
import { placeDownloaded, type LocalTree } from '../local/place.ts';
import { tempPathFor } from '../local/private-area.ts';
import type { ApiClient } from '../remote/api-client.ts';
import { refreshMirror, remoteSnapshot, SHARED_WITH_ME_ID, type RemoteRoot } from '../remote/remote-mirror.ts';
import { copyFile, deleteItem, makeFolder, moveItem } from '../remote/remote-ops.ts';
import { downloadFiles, uploadFiles, type DownloadFile, type UploadFile } from '../remote/transfers.ts';
import type { SqliteDatabase } from '../journal/open-database.ts';
import type { Journal, RemoteSide, TransferResult, UploadItem } from './ports.ts';

export interface RemoteSideParts {
  api: ApiClient;
  db: SqliteDatabase;
  root: RemoteRoot;
  tree: LocalTree;
  journal: Pick<Journal, 'transfer' | 'startTransfer' | 'endTransfer'>;
  /** Bytes moved, as they move (the progress line). */
  onBytes?: (bytes: number) => void;
}

/** The drive side for the pair's remote root. */
export function createRemoteSide(parts: RemoteSideParts): RemoteSide {
  const { api, db, root, tree, journal } = parts;
  return {
    async rootId() {
      return root.folderId;
    },
    async refresh() {
      const { cursor } = await refreshMirror(db, api, root);
      return { version: `${root.folderId ?? '/'} ${cursor}`, snapshot: () => remoteSnapshot(db, root) };
    },
    async mkdir(parentId, name) {
      if (parentId === SHARED_WITH_ME_ID) throw new Error('nothing can be made directly in Shared with me');
      return makeFolder(api, parentId, name);
    },
    async move(kind, id, target) {
      await moveItem(api, kind, id, target);
    },
    async delete(kind, id) {
      await deleteItem(api, kind, id);
    },
    async copy(id, folderId, name) {
      return copyFile(api, id, folderId, name);
    },
    async upload(items) {
      const files: UploadFile[] = items.map((item) => {
        // A large upload an earlier run began (same content) resumes from where the server has it.
        const begun = journal.transfer(item.path);
        const file: UploadFile = {
          localPath: path.join(tree.root, tree.names.localPathFor(item.path)),
          folderId: item.folderId,
          name: item.name,
          // New content of a known file replaces it (the server keeps the old as a version); a new
          // file never replaces one it did not know of: the next pass compares them instead.
          conflict: item.remoteId ? 'replace' : 'fail',
          hash: item.hash,
          size: item.size,
        };
        if (begun?.direction === 'upload' && begun.hash === item.hash && begun.tusUrl) file.resumeUrl = begun.tusUrl;
        return file;
      });
      const outcomes = await uploadFiles(api, files, {
        onUploadUrl: (index, url) => {
          const item = items[index];
          if (item) journal.startTransfer({ path: item.path, direction: 'upload', hash: item.hash, size: item.size, tusUrl: url });
        },
        onProgress: parts.onBytes,
      });
      return outcomes.map((outcome, index): TransferResult => {
        if ('error' in outcome) return { error: outcome.error.message };
        // Done: nothing left to resume (a failed one keeps its URL for the next try).
        journal.endTransfer((items[index] as UploadItem).path);
        return { id: outcome.file.id };
      });
    },
    async download(items) {
      const files: DownloadFile[] = await Promise.all(
        items.map(async (item) => ({
          remoteId: item.remoteId,
          size: item.size,
          hash: item.hash,
          // The same temp file for the same content every time: a cut download resumes (Range).
          tmpPath: await tempPathFor(tree.root, `${item.remoteId}:${item.hash}`),
        })),
      );
      const outcomes = await downloadFiles(api, files, { onProgress: parts.onBytes });
      return Promise.all(
        outcomes.map(async (outcome, index): Promise<TransferResult> => {
          const item = items[index];
          const file = files[index];
          if (!item || !file) return { error: 'no answer for this file' };
          if ('error' in outcome) return { error: outcome.error.message };
          // A finished download was hashed as it was written and matched item.hash (downloadFiles), so it is not read again.
          const placed = await placeDownloaded(tree, file.tmpPath, item.path, {
            expectedHash: item.hash,
            computedHash: item.hash,
            expected: item.expected,
          });
          if (placed.status === 'hash-mismatch') return { error: `the downloaded content of ${item.path} did not match its hash` };
          if (placed.status === 'changed') return { error: `${item.path} changed on disk meanwhile: left as it is, looked at again` };
          return { id: item.remoteId };
        }),
      );
    },
  };
}
