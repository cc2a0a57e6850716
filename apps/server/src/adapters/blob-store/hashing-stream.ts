import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import { crc32 } from '@node-rs/crc32';
import { type NativeAddon, nativeAddon } from '../../lib/native-addon.ts';
import { BlobTooLargeError, type PutResult } from './blob-store.ts';
import { awaitReaders, releaseChunk } from './chunk-release.ts';

type Hashing = Pick<NativeAddon, 'createHasher' | 'updateHasher' | 'digestHasher'> & Partial<Pick<NativeAddon, 'exportHasher'>>;

/** The addon's sha256, or the same calls on the main thread when the addon was not built or is off. */
function hashingOf(addon: Partial<NativeAddon>): Hashing {
  return addon.createHasher && addon.updateHasher && addon.digestHasher ? (addon as NativeAddon) : mainThreadHashing();
}

/**
 * Where a hash of bytes that arrive in pieces stands (a resumable upload's): the bytes
 * hashed, their CRC32, and the sha256 state, which only the native addon can export.
 */
export interface HashState {
  bytes: number;
  crc32: number;
  /** undefined on the portable path (node:crypto keeps its state to itself). */
  sha256State: Buffer | undefined;
}

/** Whether hash states can be exported and taken up again here (the native addon is loaded). */
export const hashStatesResumable = (): boolean => nativeAddon().exportHasher !== undefined;

/** The totals of bytes hashed in pieces: the last piece's state, digested. */
export function digestHashState(state: HashState & { sha256State: Buffer }): PutResult {
  const hashing = hashingOf(nativeAddon());
  return { size: state.bytes, crc32: state.crc32 >>> 0, sha256: hashing.digestHasher(hashing.createHasher(state.sha256State)) };
}

function mainThreadHashing(): Hashing {
  type Hash = ReturnType<typeof createHash>;
  return {
    createHasher: () => createHash('sha256'),
    updateHasher(hasher, chunks, done) {
      for (const chunk of chunks) (hasher as Hash).update(chunk);
      process.nextTick(done, null);
    },
    digestHasher: (hasher) => (hasher as Hash).digest('hex'),
  };
}

/** Chunks waiting to be hashed before the stream stops taking more. */
const MAX_WAITING_BYTES = 8 * 1024 * 1024;
/**
 * Bytes per trip to the thread pool: about 1 ms of work, so that file writes, downloads'
 * reads and password hashes queued on the same four threads never wait long behind it.
 */
const BATCH_BYTES = 1024 * 1024;

/**
 * A pass-through that computes sha256 and CRC32 and counts bytes as the upload streams,
 * so a blob is read once whatever the driver. Chunks go downstream at once while sha256
 * runs on the thread pool, a batch at a time: hashing on the main thread took about 1 s
 * per GiB there, and 1 GiB uploads ran at 360-480 MB/s with it against 440-830 without
 * (docs/decisions/0012). CRC32 stays on the main thread with @node-rs/crc32 (SIMD, about
 * 0.05 s per GiB): zlib's, at 4 GB/s, took a quarter of the pool thread's time. Chunks are only read, by the hash and downstream alike;
 * busboy's chunks that view its boundary look-behind buffer stay valid too, as that buffer
 * only ever holds the boundary's own bytes at the same positions.
 * Fails with BlobTooLargeError as soon as `maxBytes` is passed, before the oversized chunk
 * goes downstream.
 */
export function createHashingStream(
  options: {
    maxBytes?: number;
    from?: HashState & { sha256State: Buffer };
    keepState?: boolean;
    /**
     * The stream owns its chunks and they go down to a durable file writer, which
     * releases each once written: a chunk is freed when both are done with it (chunk-release.ts).
     */
    releaseChunks?: boolean;
  } = {},
): {
  stream: Transform;
  /** The totals; only valid once the stream has ended, and not with keepState. */
  result(): PutResult;
  /** With keepState: where the hash stands once the stream has ended, `from` and this stream's bytes. */
  state(): HashState;
} {
  const { maxBytes, from, keepState = false, releaseChunks = false } = options;
  const hashing = hashingOf(nativeAddon());
  const hasher = from ? hashing.createHasher(from.sha256State) : hashing.createHasher();
  let size = 0;
  let checksum = from?.crc32 ?? 0;
  let exported: Buffer | undefined;
  let sha256: string | undefined;
  let waiting: Buffer[] = [];
  let waitingBytes = 0;
  let hashingBatch = false;
  let failure: Error | undefined;
  // A transform or the flush held back until the hash catches up.
  let heldBack: ((error?: Error | null) => void) | undefined;
  let flushing = false;

  const release = () => {
    const callback = heldBack;
    if (!callback) return;
    if (failure) {
      heldBack = undefined;
      return callback(failure);
    }
    if (flushing && (hashingBatch || waiting.length > 0)) return;
    if (!flushing && waitingBytes >= MAX_WAITING_BYTES) return;
    heldBack = undefined;
    if (flushing) {
      try {
        if (!keepState) sha256 = hashing.digestHasher(hasher);
        else exported = hashing.exportHasher?.(hasher);
      } catch (error) {
        return callback(error as Error);
      }
    }
    callback();
  };

  const hashNext = () => {
    if (hashingBatch || waiting.length === 0 || failure) return release();
    let batchBytes = 0;
    let taken = 0;
    while (taken < waiting.length && batchBytes < BATCH_BYTES) batchBytes += (waiting[taken++] as Buffer).length;
    const batch = waiting.splice(0, taken);
    waitingBytes -= batchBytes;
    hashingBatch = true;
    try {
      hashing.updateHasher(hasher, batch, (error) => {
        hashingBatch = false;
        if (releaseChunks) for (const chunk of batch) releaseChunk(chunk);
        failure ??= error ?? undefined;
        if (!stream.destroyed) hashNext();
      });
    } catch (error) {
      hashingBatch = false;
      failure ??= error as Error;
    }
    release();
  };

  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (maxBytes !== undefined && size > maxBytes) return callback(new BlobTooLargeError(maxBytes));
      if (failure) return callback(failure);
      // Here, while the chunk is still in the cache: SIMD CRC32 runs at about 20 GB/s.
      checksum = crc32(chunk, checksum);
      if (releaseChunks) awaitReaders(chunk, 2);
      this.push(chunk);
      waiting.push(chunk);
      waitingBytes += chunk.length;
      heldBack = callback;
      hashNext();
    },
    flush(callback) {
      flushing = true;
      heldBack = callback;
      hashNext();
    },
    destroy(error, callback) {
      // Whatever waits is dropped; a batch on the thread pool finishes and starts no other.
      failure ??= error ?? new Error('The upload stopped');
      waiting = [];
      waitingBytes = 0;
      heldBack = undefined;
      callback(error);
    },
  });

  return {
    stream,
    result() {
      if (sha256 === undefined) throw new Error('The hashing stream has not ended yet');
      return { size, sha256, crc32: checksum >>> 0 };
    },
    state() {
      if (!keepState || !flushing || heldBack) throw new Error('The hashing stream keeps no state or has not ended yet');
      return { bytes: (from?.bytes ?? 0) + size, crc32: checksum >>> 0, sha256State: exported };
    },
  };
}
