import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import zlib from 'node:zlib';
import { BlobTooLargeError, type PutResult } from './blob-store.ts';

/**
 * A pass-through that computes sha256 and CRC32 and counts bytes as the upload streams,
 * so a blob is read once whatever the driver. Shared by the drivers so both report the
 * same numbers. Fails with BlobTooLargeError as soon as `maxBytes` is passed, before the
 * oversized chunk goes downstream.
 */
export function createHashingStream(options: { maxBytes?: number } = {}): {
  stream: Transform;
  /** The totals; only valid once the stream has ended. */
  result(): PutResult;
} {
  // Node's native CRC32 (20.15+) runs at memory speed; a JavaScript CRC would cap throughput.
  if (typeof zlib.crc32 !== 'function') throw new Error('CloudVault needs Node 20.15 or later (zlib.crc32)');
  const { maxBytes } = options;
  const hash = createHash('sha256');
  let crc32 = 0;
  let size = 0;
  let sha256: string | undefined;

  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (maxBytes !== undefined && size > maxBytes) return callback(new BlobTooLargeError(maxBytes));
      hash.update(chunk);
      crc32 = zlib.crc32(chunk, crc32);
      callback(null, chunk);
    },
    flush(callback) {
      sha256 = hash.digest('hex');
      callback();
    },
  });

  return {
    stream,
    result() {
      if (sha256 === undefined) throw new Error('The hashing stream has not ended yet');
      return { size, sha256, crc32: crc32 >>> 0 };
    },
  };
}
