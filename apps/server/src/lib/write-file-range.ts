import fs from 'node:fs';
import type { Writable } from 'node:stream';

/** Bytes per read and per write: 1-2 MiB measured best here; 4 MiB and more were slower. */
const CHUNK_SIZE = 2 * 1024 * 1024;
/** One buffer being read while up to two are being written. */
const BUFFERS = 3;

/** The most memory writeFileRange holds for `length` bytes: up to three buffers of a chunk each. */
export function writeFileRangeBytes(length: number, maxChunkSize = CHUNK_SIZE): number {
  const chunkSize = Math.min(maxChunkSize, length);
  return chunkSize === 0 ? 0 : chunkSize * Math.min(BUFFERS, Math.ceil(length / chunkSize));
}

/**
 * Writes `length` bytes of the open file `fd`, from `start`, into `destination` through
 * three buffers reused for the whole transfer. A buffer is read into again only once the
 * destination's write callback says its bytes have left, so a transfer holds at most
 * 6 MiB whatever the file's size, and neither stream machinery nor a fresh allocation per
 * chunk sits between disk and socket. A 1 GiB file went out at 4.7 GB/s this way against
 * 2.8 through a 4 MiB read stream, where nginx's sendfile gave 5.2-5.7 (docs/decisions/0007).
 */
export function writeFileRange(fd: number, start: number, length: number, destination: Writable, maxChunkSize = CHUNK_SIZE): Promise<void> {
  return new Promise((resolve, reject) => {
    const end = start + length;
    const chunkSize = Math.min(maxChunkSize, length);
    const free: Buffer[] = [];
    let allocated = 0;
    let position = start;
    let reading = false;
    let writing = 0;
    let failure: Error | undefined;
    let settled = false;

    const settle = () => {
      // Never before the read in flight returns: the caller closes the file next.
      if (settled || reading) return;
      if (!failure && (position < end || writing > 0)) return;
      settled = true;
      destination.off('close', onClose);
      if (failure) reject(failure);
      else resolve();
    };
    const fail = (error: Error) => {
      failure ??= error;
      settle();
    };
    // A response whose connection is gone drops later writes without calling back.
    const onClose = () =>
      fail(Object.assign(new Error('The destination closed before the last byte'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));

    const nextBuffer = (): Buffer | undefined => {
      const reused = free.pop();
      if (reused || allocated === BUFFERS) return reused;
      allocated += 1;
      return Buffer.allocUnsafeSlow(chunkSize);
    };

    const pump = (): void => {
      if (failure || reading || position >= end) return settle();
      const buffer = nextBuffer();
      if (!buffer) return;
      reading = true;
      fs.read(fd, buffer, 0, Math.min(chunkSize, end - position), position, (readError, bytesRead) => {
        reading = false;
        if (readError) return fail(readError);
        if (bytesRead === 0) return fail(new Error(`The file ended ${end - position} bytes early`));
        if (failure) return settle();
        position += bytesRead;
        writing += 1;
        destination.write(buffer.subarray(0, bytesRead), (writeError) => {
          writing -= 1;
          if (writeError) return fail(writeError);
          free.push(buffer);
          pump();
        });
        pump();
      });
    };

    destination.on('close', onClose);
    if (destination.destroyed) onClose();
    else pump();
  });
}
