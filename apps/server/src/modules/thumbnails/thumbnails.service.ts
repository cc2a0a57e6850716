import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { ThumbnailSize } from '@cloudvault/contract/thumbnails';
import { BlobNotFoundError, type BlobStore } from '../../adapters/blob-store/blob-store.ts';
import type { ThumbnailMaker, ThumbnailSource } from '../../adapters/thumbnails/thumbnail-maker.ts';
import type { Clock } from '../../lib/clock.ts';
import { THUMBNAILED_IMAGES } from '../../lib/content-types.ts';
import { notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { createSemaphore } from '../../lib/semaphore.ts';
import type { ServiceLog } from '../../lib/service-log.ts';
import type { FilesService } from '../files/files.service.ts';
import type { SharesService } from '../shares/shares.service.ts';
import type { ThumbnailRow, ThumbnailsRepository } from './thumbnails.repository.ts';

/** A failed source is tried this many times in all (a store that was down, a node that died), then left. */
export const MAX_THUMBNAIL_ATTEMPTS = 3;
/** Files one backfill run takes (a few minutes of work); the next run takes the next ones. */
const BACKFILL_BATCH = 300;
const IMAGE_TYPES = [...THUMBNAILED_IMAGES];

/** A stored thumbnail as the routes send it. */
export interface StoredThumbnail {
  key: string;
  /** Strong: the bytes under a thumbnail's key never change (a new one gets a new key). */
  etag: string;
}

/** What a job run did, for logs and tests. */
export type ThumbnailOutcome = 'made' | 'failed' | 'exists' | 'gone' | 'unsupported' | 'given-up';

/** None will come for this content (its type has none here, or making it failed): a client need not ask again. */
const noThumbnail = () => notFound('This file has no thumbnail', 'NO_THUMBNAIL');
/** Not made yet: the job runner will make it, so a client may ask again later. */
const thumbnailPending = () => notFound('This file has no thumbnail yet', 'THUMBNAIL_PENDING');

function sourceKind(mimetype: string): ThumbnailSource | null {
  if (mimetype === 'image/svg+xml') return 'svg';
  if (THUMBNAILED_IMAGES.has(mimetype)) return 'image';
  if (mimetype === 'application/pdf') return 'pdf';
  if (mimetype.startsWith('video/')) return 'video';
  return null;
}

/**
 * Thumbnails (docs/decisions/0023-thumbnails.md): made by the job runner after an upload,
 * never on its path, from a copy of the file on local disk; stored in the blob store
 * beside the file's bytes, outside the quota; served to whoever may read the file.
 */
export function createThumbnailsService(deps: {
  thumbnails: ThumbnailsRepository;
  files: Pick<FilesService, 'readableFile'>;
  shares: Pick<SharesService, 'resolve' | 'fileInFolderShare'>;
  blobs: Pick<BlobStore, 'open' | 'put' | 'delete'>;
  maker: ThumbnailMaker;
  /** Puts a file on the thumbnail queue (the job runner's). */
  enqueue(fileId: string): Promise<void>;
  /** Where sources are copied while their thumbnails are made; emptied after each. */
  workDir: string;
  /** Thumbnails this process makes at once. */
  concurrency: number;
  /** Larger sources get no thumbnail (copying them would cost more than it gives). */
  maxSourceBytes: number;
  clock: Clock;
  log: ServiceLog;
}) {
  const { thumbnails, blobs, maker, clock, log } = deps;
  const slots = createSemaphore(deps.concurrency);

  /** The stored thumbnail of a file's content; else whether one will come (THUMBNAIL_PENDING) or not (NO_THUMBNAIL). */
  async function stored(content: { blob_key: string; mimetype: string }, size: ThumbnailSize): Promise<StoredThumbnail> {
    const row = await thumbnails.find(content.blob_key);
    const key = row?.status === 'ready' ? (size === 'large' ? row.large_key : row.small_key) : null;
    if (key) return { key, etag: `"${key}"` };
    // A recorded failure is about the file (corrupt, hostile, too large): the backfill's
    // retries are for rare passing causes, not worth a client's asking again.
    if (row || !(await canMake(sourceKind(content.mimetype)))) throw noThumbnail();
    throw thumbnailPending();
  }

  /** Whether this machine can make a thumbnail of the type: images always, PDFs and videos with their program. */
  async function canMake(kind: ThumbnailSource | null): Promise<boolean> {
    if (kind === null) return false;
    if (kind === 'image' || kind === 'svg') return true;
    return (await maker.tools())[kind];
  }

  /** Copies the blob to `target` through a stream: the file is never held in memory. */
  async function copyToDisk(blobKey: string, target: string): Promise<void> {
    const source = await blobs.open(blobKey);
    const out = createWriteStream(target);
    try {
      await source.writeTo(out);
      out.end();
      await finished(out);
    } catch (error) {
      out.destroy();
      throw error;
    } finally {
      await source.close();
    }
  }

  function failure(blobKey: string, error: unknown): ThumbnailRow {
    const message = error instanceof Error ? error.message : String(error);
    return {
      blob_key: blobKey,
      status: 'failed',
      small_key: null,
      large_key: null,
      attempts: 1,
      error: message.slice(0, 500),
      updated_at: clock.now().toISOString(),
    };
  }

  /** Makes and stores the thumbnails of one blob; the caller holds a slot. */
  async function makeFor(content: { blob_key: string; mimetype: string; size: number }, kind: ThumbnailSource): Promise<ThumbnailOutcome> {
    if (Number(content.size) > deps.maxSourceBytes) {
      await thumbnails.record(failure(content.blob_key, new Error(`larger than ${deps.maxSourceBytes} bytes`)));
      return 'failed';
    }
    await mkdir(deps.workDir, { recursive: true });
    const workDir = await mkdtemp(path.join(deps.workDir, 'thumbnail-'));
    try {
      const source = path.join(workDir, 'source');
      try {
        await copyToDisk(content.blob_key, source);
      } catch (error) {
        // A missing blob is a fact about the file; any other store error is worth another try.
        if (!(error instanceof BlobNotFoundError)) throw error;
        await thumbnails.record(failure(content.blob_key, error));
        return 'failed';
      }
      let made;
      try {
        made = await maker.make(kind, source, workDir);
      } catch (error) {
        // Corrupt, hostile (too many pixels) or too slow: no thumbnail, and the reason kept.
        log.warn({ err: error, blobKey: content.blob_key }, 'no thumbnail made');
        await thumbnails.record(failure(content.blob_key, error));
        return 'failed';
      }
      const keys = { small: newId(), large: newId() };
      await blobs.put(keys.small, Readable.from([made.small]));
      await blobs.put(keys.large, Readable.from([made.large]));
      const kept = await thumbnails.record({
        blob_key: content.blob_key,
        status: 'ready',
        small_key: keys.small,
        large_key: keys.large,
        attempts: 1,
        error: null,
        updated_at: clock.now().toISOString(),
      });
      if (kept) return 'made';
      // The file went meanwhile, or another run was first: these blobs belong to nothing.
      await Promise.all([blobs.delete(keys.small), blobs.delete(keys.large)]);
      return 'exists';
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  }

  /**
   * The queued job: the thumbnails of the file's current content, unless they exist, the
   * file is gone, or its type has none here. Idempotent; at most `concurrency` at once per process.
   */
  async function make(fileId: string): Promise<ThumbnailOutcome> {
    const content = await thumbnails.liveContent(fileId);
    if (!content) return 'gone';
    const kind = sourceKind(content.mimetype);
    if (kind === null || !(await canMake(kind))) return 'unsupported';
    return slots.run(async () => {
      const existing = await thumbnails.find(content.blob_key);
      if (existing?.status === 'ready') return 'exists';
      if (existing && existing.attempts >= MAX_THUMBNAIL_ATTEMPTS) return 'given-up';
      return makeFor(content, kind);
    });
  }

  return {
    /** The thumbnail of a file the caller owns or reads through a private share (Shared with me). */
    async ofReadableFile(userId: string, fileId: string, size: ThumbnailSize): Promise<StoredThumbnail> {
      const { file } = await deps.files.readableFile(userId, fileId);
      return stored(file, size);
    },

    /** The thumbnail of a file link's file. */
    async ofFileLink(token: string, access: string | undefined, size: ThumbnailSize): Promise<StoredThumbnail> {
      const resolved = await deps.shares.resolve(token, access);
      if (resolved.type !== 'file') throw noThumbnail();
      return stored(resolved.file, size);
    },

    /** The thumbnail of a file inside a publicly shared folder (at any depth, never outside it). */
    async ofFileInFolderLink(token: string, access: string | undefined, fileId: string, size: ThumbnailSize): Promise<StoredThumbnail> {
      const resolved = await deps.shares.resolve(token, access);
      const file = await deps.shares.fileInFolderShare(resolved, fileId);
      return stored(file, size);
    },

    /** After an upload: its thumbnails are made by the queue, never on the upload's path. */
    async requestFor(file: { id: string; mimetype: string }): Promise<void> {
      if (await canMake(sourceKind(file.mimetype))) await deps.enqueue(file.id);
    },

    make,

    /**
     * The periodic job: makes the thumbnails of live files whose content has none yet:
     * files from before thumbnails, restored versions, jobs an in-process (SQLite) node lost
     * when it died, failures worth another try. A batch per run, one after another within
     * the same slots as the queue's jobs, so it never crowds uploads out; each file's outcome
     * is recorded, so the next run starts where this one ended.
     */
    async backfill(): Promise<Partial<Record<ThumbnailOutcome | 'error', number>>> {
      const tools = await maker.tools();
      const mimetypes = [...IMAGE_TYPES, ...(tools.pdf ? ['application/pdf'] : [])];
      const candidates = await thumbnails.candidates({
        limit: BACKFILL_BATCH,
        mimetypes,
        videos: tools.video,
        maxAttempts: MAX_THUMBNAIL_ATTEMPTS,
      });
      const outcomes: Partial<Record<ThumbnailOutcome | 'error', number>> = {};
      for (const fileId of candidates) {
        let outcome: ThumbnailOutcome | 'error';
        try {
          outcome = await make(fileId);
        } catch (error) {
          // The store failed (not the file): left without a row, so a later run tries again.
          log.error({ err: error, fileId }, 'thumbnail backfill: store error');
          outcome = 'error';
        }
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      }
      return outcomes;
    },
  };
}

export type ThumbnailsService = ReturnType<typeof createThumbnailsService>;
