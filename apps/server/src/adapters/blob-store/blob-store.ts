import type { Readable, Writable } from 'node:stream';

/**
 * Where file contents live, behind one interface so the services never know whether
 * bytes sit on a local disk or in an S3 bucket. Metadata (names, folders, sizes) lives in
 * the database; a blob is only bytes under a server-generated key.
 */
export interface BlobStore {
  /**
   * Streams `body` under `key`, hashing it in the same pass (no second read). With
   * `maxBytes`, a longer body rejects with BlobTooLargeError; a body that errors rejects
   * with its own error; a disk or store that fails rejects with lib/errors.ts's
   * insufficientStorage (507) or storageUnavailable (503). Either way nothing is left under
   * `key`, and `body` is destroyed.
   * With `freeChunks`, `body`'s chunks become the store's: the local store frees each
   * once hashed and written (chunk-release.ts), so only a body whose chunks nobody else
   * holds (an HTTP request's) may be given so.
   */
  put(key: string, body: Readable, options?: { maxBytes?: number; freeChunks?: boolean }): Promise<PutResult>;
  /**
   * The blob's bytes, or those of an inclusive range within it (callers clamp ranges against
   * the size they stored), opened for sending as they are: resolves once the blob is known to
   * exist, so a response can commit to its headers. Rejects with BlobNotFoundError when missing.
   */
  open(key: string, range?: ByteRange): Promise<BlobSource>;
  /**
   * Reads exactly the range's bytes into `target` from `targetOffset`, so archives are
   * assembled without a buffer per file. Rejects with BlobNotFoundError when missing, and
   * when the blob ends before the range does.
   */
  readInto(key: string, range: ByteRange, target: Buffer, targetOffset: number): Promise<void>;
  /**
   * Writes the bytes of `fromKey` under `toKey` inside the store, without reading them into
   * the process: a kernel copy (or a reflink) on local disk, CopyObject on S3. Like put,
   * `toKey` then holds all the bytes or nothing. Rejects with BlobNotFoundError when
   * `fromKey` is missing, and with lib/errors.ts's insufficientStorage when the disk is full.
   */
  copy(fromKey: string, toKey: string): Promise<void>;
  /** Idempotent: deleting a missing key succeeds. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Health check: resolves when the store answers. */
  ping(): Promise<void>;
  /**
   * Every stored blob, a page at a time in key order, with when it was written: the sweeper
   * and db:check hold one page, never the whole store.
   */
  list(pageSize?: number): AsyncIterable<StoredBlob[]>;
  /**
   * Uploads that never finished (S3 multipart uploads, local temp files), a page at a time;
   * with `key`, only those of that blob. A node killed mid-put leaves these behind.
   */
  listUnfinished(key?: string): AsyncIterable<UnfinishedUpload[]>;
  /** Removes an unfinished upload's parts; one gone already is fine. */
  discardUnfinished(upload: UnfinishedUpload): Promise<void>;
}

/** A blob as the store lists it. */
export interface StoredBlob {
  key: string;
  modifiedAt: Date;
}

/** An upload that was started and neither finished nor cleaned up. */
export interface UnfinishedUpload {
  /** The blob it was writing; undefined when the store cannot tell (a foreign temp file). */
  key: string | undefined;
  startedAt: Date;
  /** The store's own handle: the S3 upload id, the temp file's name. */
  ref: string;
}

/** An opened blob, written once into a destination and then closed. */
export interface BlobSource {
  /**
   * Writes every byte into `destination` at the pace it accepts them; the caller ends it.
   * Rejects when either side fails, including a destination closed before the last byte.
   */
  writeTo(destination: Writable): Promise<void>;
  /** The most memory writeTo holds in buffers at once: reserved from the transfer budget before sending. */
  readonly bufferBytes: number;
  /** Releases the blob; safe whether or not it was written, and more than once. */
  close(): Promise<void>;
}

/** What a stored blob turned out to be, computed while it streamed. */
export interface PutResult {
  size: number;
  /** Lower-case hex. */
  sha256: string;
  /** Unsigned 32-bit, as zlib.crc32 computes it (the ZIP checksum, so archives need no re-read). */
  crc32: number;
}

/** Byte offsets, both inclusive, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

export class BlobNotFoundError extends Error {
  override readonly name = 'BlobNotFoundError';
  constructor(readonly key: string) {
    super(`Blob ${key} not found`);
  }
}

export class BlobTooLargeError extends Error {
  override readonly name = 'BlobTooLargeError';
  constructor(readonly maxBytes: number) {
    super(`Blob exceeds ${maxBytes} bytes`);
  }
}

export class InvalidBlobKeyError extends Error {
  override readonly name = 'InvalidBlobKeyError';
  constructor(readonly key: string) {
    super(`Invalid blob key ${JSON.stringify(key.slice(0, 140))}`);
  }
}

/**
 * Whether a file system error says the disk has no room left: ENOSPC, or EDQUOT where the
 * operator gave the server's user a disk quota. A put answers it as the 507 of
 * lib/errors.ts's insufficientStorage, having kept nothing of the upload.
 */
export function isDiskFull(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

const KEY_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;

/** Whether a name found in the store is one of our keys (listings skip anything else). */
export const isValidKey = (key: string): boolean => KEY_PATTERN.test(key);

/**
 * Keys are server-generated ids (`newId()`), never user input; checked anyway so that a
 * bug elsewhere can never turn a key into a path (`../`) or an S3 prefix (`a/b`).
 */
export function assertValidKey(key: string): void {
  if (typeof key !== 'string' || !KEY_PATTERN.test(key)) throw new InvalidBlobKeyError(String(key));
}

/** Rejects malformed ranges before they reach a file offset or a Range header. */
export function assertValidRange(range: ByteRange): void {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new RangeError(`Invalid byte range ${start}-${end}`);
  }
}
