import { randomBytes } from 'node:crypto';
import fs, { constants } from 'node:fs';
import { access, copyFile, type FileHandle, mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { insufficientStorage } from '../../lib/errors.ts';
import { writeFileRange, writeFileRangeBytes } from '../../lib/write-file-range.ts';
import {
  assertValidKey,
  assertValidRange,
  BlobNotFoundError,
  type BlobSource,
  type BlobStore,
  type ByteRange,
  isDiskFull,
  isValidKey,
  type PutResult,
  type StoredBlob,
  type UnfinishedUpload,
} from './blob-store.ts';
import { createDurableFileWriter } from './durable-file-writer.ts';
import { createHashingStream } from './hashing-stream.ts';

const TEMP_DIR = '.tmp';

/**
 * Where a local store keeps each blob's file: the one thing about the local store that the
 * downloads module may know, so that it can send large files with sendfile (docs/decisions/0012).
 * Like any read, the file may be gone when used.
 */
export interface LocalFiles {
  pathOf(key: string): string;
}

/** The files of a local store at `root` (sharded by the key's first four characters). */
export function localFilesAt(root: string): LocalFiles {
  const resolved = path.resolve(root);
  const prefix = resolved.endsWith(path.sep) ? resolved : `${resolved}${path.sep}`;
  return {
    pathOf(key) {
      assertValidKey(key);
      // Joined by hand: a valid key has no separator or dot to normalise, and path.join
      // costs 0.6 ms per 1,000 keys, a zip of 1,000 files (docs/decisions/0012).
      return `${prefix}${key.slice(0, 2)}${path.sep}${key.slice(2, 4)}${path.sep}${key}`;
    },
  };
}

/**
 * Blobs as files under `root`, sharded by the key's first four characters
 * (`root/ab/cd/abcd…`) so no directory grows to millions of entries. Uploads are written
 * to `root/.tmp` and renamed into place, so a key holds either a complete, fsynced blob or
 * nothing. The temp folder sits inside `root` because rename is only atomic within one
 * file system.
 */
export async function createLocalBlobStore(options: { root: string }): Promise<BlobStore> {
  const root = path.resolve(options.root);
  const tempDir = path.join(root, TEMP_DIR);
  // Temp files a killed upload left are removed by the storage jobs, not at start-up: another
  // node sharing the root may be uploading (docs/decisions/0021-crash-safe-storage.md).
  await mkdir(tempDir, { recursive: true });

  const { pathOf } = localFilesAt(root);

  return {
    async put(key, body, { maxBytes, freeChunks = false } = {}): Promise<PutResult> {
      const finalPath = pathOf(key);
      // Named after the key, so the upload of a node that died can be found and removed.
      const tempPath = path.join(tempDir, `${key}.${randomBytes(8).toString('hex')}`);
      const hashing = createHashingStream({ maxBytes, releaseChunks: freeChunks });
      let file: FileHandle | undefined;
      try {
        file = await open(tempPath, 'wx');
        await pipeline(body, hashing.stream, createDurableFileWriter(file));
        await file.close();
        await mkdir(path.dirname(finalPath), { recursive: true });
        await rename(tempPath, finalPath);
      } catch (error) {
        body.destroy();
        await file?.close().catch(() => {});
        await unlink(tempPath).catch(() => {});
        throw isDiskFull(error) ? Object.assign(insufficientStorage(), { cause: error }) : error;
      }
      // Makes the rename itself durable; best effort, as some systems cannot fsync a directory.
      await syncDirectory(path.dirname(finalPath));
      return hashing.result();
    },

    async open(key, range?: ByteRange): Promise<BlobSource> {
      const filePath = pathOf(key);
      if (range) assertValidRange(range);
      let file: FileHandle;
      try {
        file = await open(filePath, 'r');
      } catch (error) {
        if (isNotFound(error)) throw new BlobNotFoundError(key);
        throw error;
      }
      const start = range?.start ?? 0;
      const length = range
        ? range.end - range.start + 1
        : await file.stat().then(
            (stats) => stats.size,
            (error: unknown) => file.close().then(() => Promise.reject(error)),
          );
      let closing: Promise<void> | undefined;
      return {
        writeTo: (destination) => writeFileRange(file.fd, start, length, destination),
        bufferBytes: writeFileRangeBytes(length),
        close: () => (closing ??= file.close()),
      };
    },

    async readInto(key, range, target, targetOffset) {
      const filePath = pathOf(key);
      assertValidRange(range);
      try {
        await readExactly(filePath, range.start, range.end - range.start + 1, target, targetOffset);
      } catch (error) {
        if (isNotFound(error)) throw new BlobNotFoundError(key);
        throw error;
      }
    },

    async copy(fromKey, toKey) {
      const finalPath = pathOf(toKey);
      const tempPath = path.join(tempDir, `${toKey}.${randomBytes(8).toString('hex')}`);
      try {
        // A reflink where the file system shares extents (Btrfs, XFS), else libuv's
        // copy_file_range: the kernel copies, the bytes never pass through this process.
        await copyFile(pathOf(fromKey), tempPath, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE);
        const copied = await open(tempPath, 'r+');
        try {
          await copied.sync();
        } finally {
          await copied.close();
        }
        await mkdir(path.dirname(finalPath), { recursive: true });
        await rename(tempPath, finalPath);
      } catch (error) {
        await unlink(tempPath).catch(() => {});
        if (
          isNotFound(error) &&
          !(await stat(pathOf(fromKey)).then(
            () => true,
            () => false,
          ))
        )
          throw new BlobNotFoundError(fromKey);
        throw isDiskFull(error) ? Object.assign(insufficientStorage(), { cause: error }) : error;
      }
      await syncDirectory(path.dirname(finalPath));
    },

    async delete(key) {
      try {
        await unlink(pathOf(key));
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    },

    async exists(key) {
      try {
        return (await stat(pathOf(key))).isFile();
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    },

    async ping() {
      await access(tempDir, constants.R_OK | constants.W_OK);
    },

    async *list(pageSize = 1000) {
      // root/ab/cd/abcd…: sorted at each level, so keys come in order and one leaf folder is held at a time.
      let page: StoredBlob[] = [];
      for (const first of await shardNames(root)) {
        for (const second of await shardNames(path.join(root, first))) {
          const folder = path.join(root, first, second);
          for (const name of (await readdir(folder).catch(() => [])).sort()) {
            if (!isValidKey(name)) continue;
            const stats = await stat(path.join(folder, name)).catch(() => undefined);
            if (!stats?.isFile()) continue;
            page.push({ key: name, modifiedAt: stats.mtime });
            if (page.length >= pageSize) {
              yield page;
              page = [];
            }
          }
        }
      }
      if (page.length > 0) yield page;
    },

    async *listUnfinished(key) {
      const names = (await readdir(tempDir).catch(() => [])).filter((name) => key === undefined || name.startsWith(`${key}.`));
      for (let start = 0; start < names.length; start += 1000) {
        const uploads: UnfinishedUpload[] = [];
        for (const name of names.slice(start, start + 1000)) {
          const stats = await stat(path.join(tempDir, name)).catch(() => undefined);
          if (!stats) continue;
          const uploadKey = name.slice(0, name.indexOf('.'));
          uploads.push({ key: isValidKey(uploadKey) ? uploadKey : undefined, startedAt: stats.mtime, ref: name });
        }
        if (uploads.length > 0) yield uploads;
      }
    },

    async discardUnfinished(upload) {
      // A ref is a name this store listed in .tmp; anything with a path in it is not one.
      if (path.basename(upload.ref) !== upload.ref || upload.ref.startsWith('.')) return;
      await rm(path.join(tempDir, upload.ref), { recursive: true, force: true });
    },
  };
}

/** The two-character shard folders in a folder, sorted (`.tmp` and anything else skipped). */
async function shardNames(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isDirectory() && /^[A-Za-z0-9_-]{2}$/.test(entry.name))
    .map((entry) => entry.name)
    .sort();
}

async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Windows and some network file systems refuse; the data itself was already synced.
  }
}

function isNotFound(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/**
 * Open, positioned reads until `length` bytes are in, close: through the callback API,
 * which costs less per call than FileHandle when an archive reads thousands of files.
 */
function readExactly(filePath: string, start: number, length: number, target: Buffer, targetOffset: number): Promise<void> {
  return new Promise((resolve, reject) => {
    fs.open(filePath, 'r', (openError, fd) => {
      if (openError) return reject(openError);
      const finish = (error?: Error) =>
        fs.close(fd, (closeError) => {
          const failure = error ?? closeError;
          if (failure) reject(failure);
          else resolve();
        });
      let filled = 0;
      const readMore = () => {
        if (filled === length) return finish();
        fs.read(fd, target, targetOffset + filled, length - filled, start + filled, (readError, bytesRead) => {
          if (readError) return finish(readError);
          if (bytesRead === 0) return finish(new Error(`The blob ended ${length - filled} bytes before the range did`));
          filled += bytesRead;
          readMore();
        });
      };
      readMore();
    });
  });
}
