import { randomBytes } from 'node:crypto';
import fs, { constants } from 'node:fs';
import { access, type FileHandle, mkdir, open, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { writeFileRange, writeFileRangeBytes } from '../../lib/write-file-range.ts';
import {
  assertValidKey,
  assertValidRange,
  BlobNotFoundError,
  type BlobSource,
  type BlobStore,
  type ByteRange,
  type PutResult,
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
  return {
    pathOf(key) {
      assertValidKey(key);
      return path.join(resolved, key.slice(0, 2), key.slice(2, 4), key);
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
  await mkdir(tempDir, { recursive: true });
  await cleanTemp(root);

  const { pathOf } = localFilesAt(root);

  return {
    async put(key, body, { maxBytes } = {}): Promise<PutResult> {
      const finalPath = pathOf(key);
      const tempPath = path.join(tempDir, randomBytes(16).toString('hex'));
      const hashing = createHashingStream({ maxBytes });
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
        throw error;
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
      const length = range ? range.end - range.start + 1 : await file.stat().then(
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
  };
}

/**
 * Removes uploads that a crash or kill left in `root/.tmp`. Run at start-up, before the
 * store takes uploads: it assumes one server process per root, as it cannot tell another
 * live process's upload from a leftover.
 */
export async function cleanTemp(root: string): Promise<void> {
  const tempDir = path.join(root, TEMP_DIR);
  await rm(tempDir, { recursive: true, force: true });
  await mkdir(tempDir, { recursive: true });
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
