import type { FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { type NativeAddon, nativeAddon } from '../../lib/native-addon.ts';
import { releaseChunk } from './chunk-release.ts';

type Done = (error: Error | null) => void;

/** One file's writes: the addon's, or the portable ones through FileHandle. */
interface FileWriter {
  write(chunks: Buffer[], done: Done): void;
  /** Writes what is left and makes the whole file durable. */
  finish(done: Done): void;
  /** Gives up the file; safe while a write is in flight and after finish. */
  close(): void;
}

/**
 * Chunks waiting while a write is in flight go to disk together, up to this much before
 * the upload is paused: 1 GiB uploads ran at about 340 MB/s with 1 MiB, 360 with 4 and
 * 420 with 8, as the socket stalls less often while a write is out.
 */
const WRITE_BATCH_SIZE = 8 * 1024 * 1024;
/** Portable writes are flushed to disk each time this much more has been written. */
const SYNC_EVERY = 16 * 1024 * 1024;

/**
 * Writes into `file` from `offset` on and makes the bytes durable as they arrive. With the addon the
 * writes run on the thread pool, and beyond a file's first 4 MiB past the page cache
 * (O_DIRECT where the file system has it): a 1 GiB upload costs the server about 1 s of
 * CPU less, and no fsync at the end waits for a gigabyte of write-back
 * (docs/decisions/0012). The caller closes the file.
 * `addon` is the addon as start-up chose it; tests pass none to take the portable path.
 */
export function createDurableFileWriter(
  file: FileHandle,
  addon: Partial<NativeAddon> = nativeAddon(),
  offset = 0,
): Writable & { readonly bytesWritten: number } {
  const { createFileWriter, writeFile, finishFile, closeFileWriter } = addon;
  const writer =
    createFileWriter && writeFile && finishFile && closeFileWriter
      ? nativeFileWriter(file, addon as NativeAddon, offset)
      : portableFileWriter(file, offset);
  let bytesWritten = 0;
  const writable = new Writable({
    highWaterMark: WRITE_BATCH_SIZE,
    writev(chunks, callback) {
      const buffers = chunks.map(({ chunk }) => chunk as Buffer);
      writer.write(buffers, (error) => {
        if (!error) {
          bytesWritten += buffers.reduce((sum, buffer) => sum + buffer.length, 0);
          // Written: a chunk the hashing stream is also done with is freed now (chunk-release.ts).
          for (const buffer of buffers) releaseChunk(buffer);
        }
        callback(error ?? undefined);
      });
    },
    final(callback) {
      writer.finish((error) => callback(error ?? undefined));
    },
    destroy(error, callback) {
      writer.close();
      callback(error);
    },
  });
  return Object.defineProperty(writable, 'bytesWritten', { get: () => bytesWritten }) as Writable & { readonly bytesWritten: number };
}

function nativeFileWriter(file: FileHandle, addon: NativeAddon, offset: number): FileWriter {
  const handle = addon.createFileWriter(file.fd, offset);
  return {
    write: (chunks, done) => addon.writeFile(handle, chunks, done),
    finish: (done) => addon.finishFile(handle, done),
    close: () => addon.closeFileWriter(handle),
  };
}

/**
 * Through the page cache: every 16 MiB a datasync starts in the background (one at a
 * time) while writing goes on, so the fsync that ends the stream waits for the last few
 * MiB instead of the whole file. 1 GiB from the page cache took 1.7-2.7 s written and then
 * fsynced, 1.0-1.4 s flushed every 16 MiB. FileHandle.close waits for what is in flight.
 */
function portableFileWriter(file: FileHandle, offset: number): FileWriter {
  let position = offset;
  let unsynced = 0;
  let syncing: Promise<unknown> | undefined;
  // Linux reports a write-back error once per open file: a later fsync would not see it again.
  let syncFailure: Error | undefined;
  return {
    write(buffers, done) {
      if (syncFailure) return done(syncFailure);
      const length = buffers.reduce((sum, buffer) => sum + buffer.length, 0);
      file.writev(buffers, position).then(({ bytesWritten }) => {
        // A regular file takes a short write only when the disk is full.
        if (bytesWritten !== length)
          return done(Object.assign(new Error(`Wrote ${bytesWritten} of ${length} bytes: is the disk full?`), { code: 'ENOSPC' }));
        position += length;
        unsynced += length;
        if (unsynced >= SYNC_EVERY && !syncing) {
          unsynced = 0;
          syncing = file.datasync().then(
            () => (syncing = undefined),
            (error: Error) => {
              syncFailure ??= error;
              syncing = undefined;
            },
          );
        }
        done(null);
      }, done);
    },
    finish(done) {
      Promise.resolve(syncing)
        .then(() => {
          if (syncFailure) throw syncFailure;
          return file.sync();
        })
        .then(() => done(null), done);
    },
    close() {},
  };
}
