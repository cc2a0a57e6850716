import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import type { SyncItemError, SyncUploadResult } from '@cloudvault/contract/sync';
import { AppError, badRequest } from '../../lib/errors.ts';
import type { FileItem } from '@cloudvault/contract/files';
import type { GroupFile, GroupOutcome, UploadDestination, UploadsService } from '../files/uploads.service.ts';

/** The owner's storage_used before and after the batch's grouped files, and the plan's limit. */
type UsageChange = GroupOutcome['usage'];
import type { BatchEntry } from './sync-upload-parts.ts';

/**
 * Files stored at once within a batch. Each stored file is fsynced (a file and a directory:
 * about 20 ms on this kind of disk, decision 0021); the disk commits concurrent ones
 * together, so small files go 15 times faster sixteen at a time than one by one.
 */
const FILES_AT_ONCE = 16;
/** Small files listed in one transaction (uploads.receiveGroup); they are stored 16 at a time within it. */
const GROUP_FILES = 32;
/** A group's bytes held in memory at most (a file of it is read whole): a group of big files is listed sooner. */
const GROUP_BYTES = 8 * 1024 * 1024;
/** Groups stored and listed at once: one group's bytes go to the disk while the other's transaction commits. */
const GROUPS_AT_ONCE = 2;
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
async function readAhead(body: Readable, limit: number): Promise<{ whole: boolean; bytes: number; chunks: Buffer[]; body: Readable }> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  const iterator = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  for (;;) {
    const { done, value } = await iterator.next();
    if (done) return { whole: true, bytes, chunks, body: Readable.from(chunks, { objectMode: false }) };
    chunks.push(value);
    bytes += value.length;
    if (bytes > limit) break;
  }
  async function* all(): AsyncGenerator<Buffer> {
    yield* chunks;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { whole: false, bytes, chunks, body: Readable.from(all(), { objectMode: false }) };
}

export interface SyncUploadsServiceDeps {
  uploads: Pick<UploadsService, 'receive' | 'reserve' | 'release' | 'destination' | 'receiveGroup'>;
  /** After the batch, for the files its groups listed: one activity entry, storage alerts checked once (files/stored-reaction.ts). */
  uploadedMany(userId: string, upload: { files: readonly FileItem[]; bytes: number }, usage: UsageChange): Promise<void>;
}

type ValidEntry = BatchEntry & { meta: Exclude<BatchEntry['meta'], AppError> };

/** A small file waiting in a group, and how its result is given. */
interface Grouped {
  file: GroupFile;
  entry: ValidEntry;
  settle(result: Promise<SyncUploadResult>): void;
}

/**
 * POST /api/sync/uploads (docs/api.md#sync): many small files in one request. A file read
 * whole, for the caller's own drive and not replacing (which keeps versions), joins a group
 * of GROUP_FILES listed together (uploads.receiveGroup: one quota hold, one transaction, one
 * journal call); any other file goes through the one upload use-case alone (uploads.receive),
 * as an editor's into a shared folder. The batch holds one of the plan's uploads at once for
 * all its files, and has one activity entry for its grouped files. One file's refusal is its
 * result; the others go on. A failure that is not a refusal (the store, the database, a body
 * that broke off) ends the request once the files in flight are done: the files before it
 * are kept (and in the feed).
 */
export function createSyncUploadsService({ uploads, uploadedMany }: SyncUploadsServiceDeps) {
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
      const groupsInFlight = new Set<Promise<unknown>>();
      // The places of the files sent in groups, and how the owner's usage moved with them.
      const grouped = new Set<number>();
      let usage: UsageChange | undefined;
      // Whose drive each folder named is, read once per batch (the listing checks the folder is still live).
      const destinations = new Map<string | null, Promise<UploadDestination | AppError>>();
      const destinationOf = (folderId: string | null) => {
        if (!destinations.has(folderId))
          destinations.set(
            folderId,
            uploads.destination(userId, folderId).catch((error: unknown) => {
              if (error instanceof AppError && error.status < 500) return error;
              throw error;
            }),
          );
        return destinations.get(folderId)!;
      };

      /** The group's files listed together; a group that does not fit the quota goes file by file, each held on its own. */
      async function listGroup(group: Grouped[]): Promise<void> {
        try {
          const outcome = await uploads.receiveGroup(
            userId,
            group.map(({ file }) => file),
          );
          outcome.results.forEach((result, index) =>
            group[index]!.settle(Promise.resolve(result instanceof AppError ? itemError(result) : { file: result })),
          );
          if (outcome.results.some((result) => !(result instanceof AppError)))
            // Groups commit in any order: the batch's usage runs from the lowest before to the highest after.
            usage = {
              limit: outcome.usage.limit,
              before: Math.min(usage?.before ?? outcome.usage.before, outcome.usage.before),
              after: Math.max(usage?.after ?? outcome.usage.after, outcome.usage.after),
            };
        } catch (error) {
          if (error instanceof AppError && error.status === 507) {
            // One after the other, in the order sent: the files that fit are the first ones.
            for (const { entry, file, settle } of group) {
              const result = receiveOne(userId, entry, { body: Readable.from(file.chunks), bytes: file.size });
              settle(result);
              await result.catch(() => {});
            }
            return;
          }
          for (const { settle } of group) settle(Promise.reject(error));
        }
      }

      let group: Grouped[] = [];
      let groupBytes = 0;
      const flush = async () => {
        if (group.length === 0) return;
        const run = listGroup(group);
        group = [];
        groupBytes = 0;
        const settled = run.finally(() => groupsInFlight.delete(settled));
        groupsInFlight.add(settled);
        while (groupsInFlight.size >= GROUPS_AT_ONCE) await Promise.race(groupsInFlight);
      };

      try {
        for await (const entry of entries) {
          const { meta, file } = entry;
          if (meta instanceof AppError) {
            results.push(Promise.resolve(itemError(meta)));
            continue;
          }
          const ahead = await readAhead(file.body, BUFFERED_FILE_BYTES);
          const destination = ahead.whole && meta.conflict !== 'replace' ? await destinationOf(meta.folderId) : undefined;
          if (destination instanceof AppError) {
            results.push(Promise.resolve(itemError(destination)));
            continue;
          }
          if (destination?.ownerId === userId) {
            const chunks = ahead.chunks;
            const result = new Promise<SyncUploadResult>((resolve, reject) => {
              group.push({
                entry: { meta, file },
                file: {
                  folderId: destination.folderId,
                  name: meta.name,
                  conflict: meta.conflict === 'keep-both' ? 'keep-both' : 'fail',
                  declaredMimetype: file.declaredMimetype,
                  chunks,
                  size: ahead.bytes,
                  ...(meta.contentHash === undefined ? {} : { contentHash: meta.contentHash.toLowerCase() }),
                },
                settle: (outcome) => outcome.then(resolve, reject),
              });
            });
            // A group's failure is answered at the end (Promise.all below), not an unhandled rejection meanwhile.
            result.catch(() => {});
            grouped.add(results.length);
            results.push(result);
            groupBytes += ahead.bytes;
            if (group.length >= GROUP_FILES || groupBytes >= GROUP_BYTES) await flush();
            continue;
          }
          // The group so far goes on its way first, not held back behind a file that streams.
          await flush();
          while (inFlight.size >= FILES_AT_ONCE) await Promise.race(inFlight);
          const result = receiveOne(userId, { meta, file }, { body: ahead.body, bytes: ahead.whole ? ahead.bytes : undefined });
          results.push(result);
          // A big file streams from the request: it is stored before the next part can be read.
          if (!ahead.whole) await result.catch(() => {});
          const settled = result.catch(() => {}).finally(() => inFlight.delete(settled));
          inFlight.add(settled);
        }
        await flush();
      } finally {
        // Nothing left running when the request ends, whatever ended it; a group cut short is settled as failed.
        for (const { settle } of group) settle(Promise.reject(new AppError(400, 'INVALID_BATCH', 'The batch ended early')));
        group = [];
        await Promise.allSettled(groupsInFlight);
        const settled = await Promise.allSettled(results);
        await uploads.release(slot);
        // The grouped files kept, a request that failed later included; in the order sent, so the entry is named by the first.
        const files = settled.flatMap((result, index) =>
          grouped.has(index) && result.status === 'fulfilled' && 'file' in result.value ? [result.value.file] : [],
        );
        const bytes = files.reduce((total, file) => total + file.size, 0);
        if (files.length > 0 && usage) await uploadedMany(userId, { files, bytes }, usage);
      }
      return Promise.all(results);
    },
  };
}

export type SyncUploadsService = ReturnType<typeof createSyncUploadsService>;
