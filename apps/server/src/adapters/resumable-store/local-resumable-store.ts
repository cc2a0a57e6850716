import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { localFilesAt } from '../blob-store/local-blob-store.ts';
import type { ResumableStore } from './resumable-store.ts';

/**
 * tus uploads as files in the local store's temp folder, `<key>.tus` beside its info file
 * `<key>.tus.json`: the local BlobStore lists both as unfinished uploads of `key`, so the
 * reconciler and sweeper clean them like a killed put's temp file once the reservation is
 * gone. Finishing renames the bytes into place: same file system, no copy.
 */
export function createLocalResumableStore(root: string): ResumableStore {
  const directory = path.join(path.resolve(root), '.tmp');
  const { pathOf } = localFilesAt(root);
  const storeIdOf = (key: string) => `${key}.tus`;
  const datastore = new FileStore({ directory });
  return {
    datastore,
    storeIdOf,
    keyOf: (storeId) => storeId.replace(/\.tus$/, ''),
    async finish(key) {
      const temp = path.join(directory, storeIdOf(key));
      let file;
      try {
        file = await open(temp, 'r+');
      } catch (error) {
        // Renamed by an earlier run that died before it was recorded.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw error;
      }
      try {
        // @tus/file-store writes through the page cache; the blob must survive a power cut.
        await file.sync();
      } finally {
        await file.close();
      }
      await mkdir(path.dirname(pathOf(key)), { recursive: true });
      await rename(temp, pathOf(key));
      await rm(`${temp}.json`, { force: true });
    },
    async remove(key) {
      const temp = path.join(directory, storeIdOf(key));
      await rm(temp, { force: true });
      await rm(`${temp}.json`, { force: true });
    },
  };
}
