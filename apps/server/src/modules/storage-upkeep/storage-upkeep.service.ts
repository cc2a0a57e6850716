import type { BlobStore } from '../../adapters/blob-store/blob-store.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ServiceLog } from '../../lib/service-log.ts';
import type { StorageUpkeepRepository } from './storage-upkeep.repository.ts';

/** Rows per query of every job's pass: memory holds one page whatever the tables hold. */
const PAGE = 500;

export interface StorageUpkeepDeps {
  upkeep: StorageUpkeepRepository;
  blobs: Pick<BlobStore, 'delete' | 'list' | 'listUnfinished' | 'discardUnfinished'>;
  clock: Clock;
  log: ServiceLog;
  /** How old an unreferenced blob or unfinished upload must be before the sweeper removes it. */
  sweepGraceMs: number;
}

/**
 * The storage jobs (docs/decisions/0021-crash-safe-storage.md), each idempotent and safe on
 * several nodes at once: the reconciler gives back what dead uploads reserved and sets
 * storage_used to the exact sum of the files; the blob-deletion job deletes the bytes of
 * rows already deleted; the sweeper removes what no row references.
 */
export function createStorageUpkeepService({ upkeep, blobs, clock, log, sweepGraceMs }: StorageUpkeepDeps) {
  /** Deletes the blobs' bytes (a missing blob is fine), then their queue rows; a failure stays queued for the next run. */
  async function deleteBlobs(keys: readonly string[]): Promise<number> {
    const deleted: string[] = [];
    for (const key of keys) {
      try {
        await blobs.delete(key);
        deleted.push(key);
      } catch (error) {
        log.error({ err: error, blobKey: key }, 'queued blob not deleted; the next run retries');
      }
    }
    await upkeep.dequeueBlobDeletions(deleted);
    return deleted.length;
  }

  /** Removes the unfinished uploads of one blob, or (without a key) those older than `before`. */
  async function discardUnfinished(options: { key?: string; before?: Date }): Promise<number> {
    let discarded = 0;
    for await (const page of blobs.listUnfinished(options.key)) {
      for (const upload of page) {
        if (options.before && upload.startedAt >= options.before) continue;
        // An upload running longer than the grace period still holds its reservation.
        if (!options.key && upload.key !== undefined && (await upkeep.isReserved(upload.key))) continue;
        await blobs.discardUnfinished(upload);
        discarded += 1;
      }
    }
    return discarded;
  }

  return {
    /**
     * Deletes queued blobs: those given (just queued by the caller's transaction, so a
     * request frees its bytes before it answers), or every queued one (the periodic job).
     */
    async deleteQueuedBlobs(keys?: readonly string[]): Promise<number> {
      if (keys) return deleteBlobs(keys);
      let deleted = 0;
      let after = '';
      for (;;) {
        const page = await upkeep.queuedBlobDeletions(after, PAGE);
        if (page.length === 0) return deleted;
        deleted += await deleteBlobs(page);
        after = page[page.length - 1] as string;
      }
    },

    /**
     * Gives back every reservation whose lease ran out (its node died or lost the database)
     * and removes its partial upload, then sets storage_used to the exact sum of the files
     * for every user with no upload in progress: any drift converges.
     */
    async reconcile(): Promise<{ expired: number; corrected: number }> {
      let expired = 0;
      const now = clock.now().toISOString();
      for (;;) {
        const page = await upkeep.expiredReservations(now, PAGE);
        for (const reservation of page) {
          const blobKey = await upkeep.giveBackExpired(reservation, now);
          if (blobKey === undefined) continue;
          expired += 1;
          await discardUnfinished({ key: blobKey });
          await deleteBlobs([blobKey]);
        }
        if (page.length < PAGE) break;
      }
      let corrected = 0;
      let after = '';
      for (;;) {
        const users = await upkeep.driftingUsers(after, PAGE);
        for (const userId of users) if (await upkeep.settleDrift(userId)) corrected += 1;
        if (users.length < PAGE) return { expired, corrected };
        after = users[users.length - 1] as string;
      }
    },

    /**
     * Aborts unfinished uploads and deletes blobs no row references, both older than the
     * grace period (younger ones may belong to a put whose row is about to be written).
     */
    async sweep(): Promise<{ unfinished: number; orphans: number }> {
      const before = new Date(clock.now().getTime() - sweepGraceMs);
      const unfinished = await discardUnfinished({ before });
      let orphans = 0;
      for await (const page of blobs.list(PAGE)) {
        const old = page.filter((blob) => blob.modifiedAt < before).map((blob) => blob.key);
        if (old.length === 0) continue;
        const referenced = await upkeep.referencedKeys(old);
        for (const key of old) {
          if (referenced.has(key)) continue;
          await blobs.delete(key);
          orphans += 1;
        }
      }
      return { unfinished, orphans };
    },
  };
}

export type StorageUpkeepService = ReturnType<typeof createStorageUpkeepService>;
