import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import { ERRORS } from '@tus/utils';
import { createDurableFileWriter } from '../blob-store/durable-file-writer.ts';
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
  /**
   * A PATCH's bytes go to disk the way the multipart route's do (durable-file-writer.ts):
   * on the thread pool and, past the first 4 MiB, around the page cache, durable when the
   * PATCH is answered. @tus/file-store's own write went through the cache in 16 KiB writes
   * and left a gigabyte of write-back to the fsync that finishes the upload: 1 GiB in
   * 64 MiB PATCHes ran at 0.35-0.45 of the multipart route.
   */
  datastore.write = async (stream: Readable, storeId: string, offset: number) => {
    const file = await open(path.join(directory, storeId), 'r+');
    try {
      const writer = createDurableFileWriter(file, undefined, offset);
      try {
        await pipeline(stream, writer);
      } catch {
        // What reached the disk stays: the next HEAD's offset is the file's size.
        throw ERRORS.FILE_WRITE_ERROR;
      }
      return offset + writer.bytesWritten;
    } finally {
      await file.close();
    }
  };
  return {
    datastore,
    storeIdOf,
    keyOf: (storeId) => storeId.replace(/\.tus$/, ''),
    async isComplete(key, length) {
      const sizeOf = (file: string) => stat(file).then((stats) => stats.size, () => undefined);
      return ((await sizeOf(path.join(directory, storeIdOf(key)))) ?? (await sizeOf(pathOf(key)))) === length;
    },
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
