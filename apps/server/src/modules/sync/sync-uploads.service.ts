import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import type { SyncItemError, SyncUploadResult } from '@cloudvault/contract/sync';
import { AppError, badRequest } from '../../lib/errors.ts';
import type { UploadsService } from '../files/uploads.service.ts';
import type { BatchEntry } from './sync-upload-parts.ts';

/**
 * Files stored at once within a batch. Each stored file is fsynced (a file and a directory:
 * about 20 ms on this kind of disk, decision 0021); the disk commits concurrent ones
 * together, so small files go 15 times faster sixteen at a time than one by one.
 */
const FILES_AT_ONCE = 16;
/** A file up to this size is read whole before it is stored, so the next part can be read meanwhile; a bigger one streams. */
const BUFFERED_FILE_BYTES = 1024 * 1024;

/** A refusal of one file, as its place in the results says it. */
const itemError = (error: AppError): SyncItemError => ({ error: error.message, code: error.code, status: error.status });

const hashMismatch = () =>
  badRequest('The bytes received do not have the contentHash sent: the file changed while it was sent, or was cut', 'HASH_MISMATCH');

/** Passes the bytes on unchanged, hashing them before the store sees (and frees) them. */
function hashing(hash: ReturnType<typeof createHash>): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
}

/**
 * A part's bytes read ahead up to `limit`: `whole` when the part ended within it (the part
 * is then read to its end, so the next one can come), and a stream of all its bytes.
 */
async function readAhead(body: Readable, limit: number): Promise<{ whole: boolean; bytes: number; body: Readable }> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  const iterator = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  for (;;) {
    const { done, value } = await iterator.next();
    if (done) return { whole: true, bytes, body: Readable.from(chunks, { objectMode: false }) };
    chunks.push(value);
    bytes += value.length;
    if (bytes > limit) break;
  }
  async function* all(): AsyncGenerator<Buffer> {
    yield* chunks;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { whole: false, bytes, body: Readable.from(all(), { objectMode: false }) };
}

export interface SyncUploadsServiceDeps {
  uploads: Pick<UploadsService, 'receive' | 'reserve' | 'release'>;
}

type ValidEntry = BatchEntry & { meta: Exclude<BatchEntry['meta'], AppError> };

/**
 * POST /api/sync/uploads (docs/api.md#sync): many small files in one request, each through
 * the one upload use-case (uploads.receive: quota held, bytes hashed while stored, row and
 * change journal in one transaction, nothing left of a refusal). The batch holds one of the
 * plan's uploads at once for all its files. One file's refusal is its result; the others go
 * on. A failure that is not a refusal (the store, the database, a body that broke off) ends
 * the request once the files in flight are done: the files before it are kept (and in the feed).
 */
export function createSyncUploadsService({ uploads }: SyncUploadsServiceDeps) {
  /** One file whose bytes are `body`: its result, or its refusal. */
  async function receiveOne(
    userId: string,
    { meta, file }: ValidEntry,
    content: { body: Readable; bytes: number | undefined },
  ): Promise<SyncUploadResult> {
    const expected = meta.contentHash?.toLowerCase();
    // Hashed on the way to the store, so a mismatch is known before the answer; only when asked.
    const hash = expected === undefined ? undefined : createHash('sha256');
    const body = hash ? content.body.pipe(hashing(hash)) : content.body;
    try {
      const listed = await uploads.receive({
        userId,
        folderId: meta.folderId,
        // A file read whole holds its size; one that streams, what the plan allows one file, the rest given back once stored.
        declaredBytes: content.bytes,
        framing: 'raw',
        conflict: meta.conflict ?? 'fail',
        slotHeld: true,
        content: async () => ({ folderId: meta.folderId, fileName: meta.name, declaredMimetype: file.declaredMimetype, body }),
        // After listing: a mismatch removes the file again (receive's rule for a refusal after listing).
        rest: async () => {
          if (hash && hash.digest('hex') !== expected) throw hashMismatch();
        },
      });
      return { file: listed };
    } catch (error) {
      if (error instanceof AppError && error.status < 500) return itemError(error);
      throw error;
    }
  }

  return {
    /** Every file of the batch in order, each with its result. */
    async receiveBatch(userId: string, entries: AsyncIterable<BatchEntry>): Promise<SyncUploadResult[]> {
      // The batch's one upload slot (and a check that the caller may upload at all), held to the end.
      const slot = await uploads.reserve(userId, 0, { framing: 'raw' });
      const results: Array<Promise<SyncUploadResult>> = [];
      const inFlight = new Set<Promise<unknown>>();
      try {
        for await (const entry of entries) {
          const { meta, file } = entry;
          if (meta instanceof AppError) {
            results.push(Promise.resolve(itemError(meta)));
            continue;
          }
          while (inFlight.size >= FILES_AT_ONCE) await Promise.race(inFlight);
          const ahead = await readAhead(file.body, BUFFERED_FILE_BYTES);
          const result = receiveOne(userId, { meta, file }, { body: ahead.body, bytes: ahead.whole ? ahead.bytes : undefined });
          results.push(result);
          // A big file streams from the request: it is stored before the next part can be read.
          if (!ahead.whole) await result.catch(() => {});
          const settled = result.catch(() => {}).finally(() => inFlight.delete(settled));
          inFlight.add(settled);
        }
      } finally {
        // Nothing left running when the request ends, whatever ended it.
        await Promise.allSettled(results);
        await uploads.release(slot);
      }
      return Promise.all(results);
    },
  };
}

export type SyncUploadsService = ReturnType<typeof createSyncUploadsService>;
