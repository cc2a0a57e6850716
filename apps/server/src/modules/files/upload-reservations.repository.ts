import type { Kysely, Transaction } from 'kysely';
import { queueBlobDeletions } from '../../db/blob-deletions.ts';
import type { Dialect } from '../../db/database.ts';
import { lockUsers } from '../../db/locks.ts';
import { addStorageUsedWithin, changeStorageUsed } from '../../db/storage-usage.ts';
import type { Database } from '../../db/schema.ts';

/** Why a reservation was not made. */
export type ReserveOutcome = 'reserved' | 'too-many-uploads' | 'storage-full';

export interface ReservationRequest {
  id: string;
  userId: string;
  bytes: number;
  blobKey: string;
  /** ISO times from the service's clock. */
  now: string;
  leaseUntil: string;
  storageLimit: number;
  /** The plan's uploads at once; null for no limit. */
  maxConcurrentUploads: number | null;
}

/**
 * Inside an upload's completing transaction (the user locked first): deletes the reservation
 * and gives back what the stored file does not use. Answers storage_used after it, or
 * undefined when the reservation is gone: its lease ran out and another node gave its bytes
 * back and queued its blob for deletion (docs/decisions/0021-crash-safe-storage.md).
 */
export async function settleReservation(
  trx: Transaction<Database>,
  reservationId: string,
  userId: string,
  storedBytes: number,
): Promise<number | undefined> {
  const reservation = await trx
    .deleteFrom('upload_reservations')
    .where('id', '=', reservationId)
    .where('user_id', '=', userId)
    .returning('bytes')
    .executeTakeFirst();
  if (!reservation) return undefined;
  return changeStorageUsed(trx, userId, storedBytes - Number(reservation.bytes));
}

/**
 * Uploads in progress as rows with a lease (docs/decisions/0021-crash-safe-storage.md): the
 * quota and the plan's uploads at once hold across every node sharing the database, and
 * what a dead node reserved is given back by whichever node sees its lease run out.
 */
export function createUploadReservationsRepository(db: Kysely<Database>, dialect: Dialect) {
  /**
   * Counts the user's live uploads, adds the bytes to storage_used within the limit and
   * inserts the reservation, in one transaction that locks the user first: two nodes
   * reserving at once take turns, so neither passes the quota or the plan's slots.
   * With `upToRoom`, the bytes shrink to the storage left. Answers the bytes reserved.
   */
  function reserveBytes(request: ReservationRequest, upToRoom: boolean): Promise<number | Exclude<ReserveOutcome, 'reserved'>> {
    const { userId } = request;
    return db.transaction().execute(async (trx) => {
      await lockUsers(trx, dialect, [userId]);
      if (request.maxConcurrentUploads !== null) {
        const live = await trx
          .selectFrom('upload_reservations')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('user_id', '=', userId)
          .where('lease_until', '>', request.now)
          .executeTakeFirstOrThrow();
        if (Number(live.count) >= request.maxConcurrentUploads) return 'too-many-uploads';
      }
      let bytes = request.bytes;
      if (upToRoom) {
        const user = await trx.selectFrom('users').select('storage_used').where('id', '=', userId).executeTakeFirstOrThrow();
        bytes = Math.min(bytes, request.storageLimit - Number(user.storage_used));
        if (bytes < 0) return 'storage-full';
      }
      if (!(await addStorageUsedWithin(trx, userId, bytes, request.storageLimit))) return 'storage-full';
      await trx
        .insertInto('upload_reservations')
        .values({
          id: request.id,
          user_id: userId,
          bytes,
          blob_key: request.blobKey,
          lease_until: request.leaseUntil,
          created_at: request.now,
        })
        .execute();
      return bytes;
    });
  }

  return {
    /** Reserves exactly the request's bytes (a declared length), or says why not. */
    reserve(request: ReservationRequest): Promise<ReserveOutcome> {
      return reserveBytes(request, false).then((outcome) => (typeof outcome === 'number' ? 'reserved' : outcome));
    },

    /**
     * For a body of unknown length: reserves `request.bytes` (what the plan allows one file),
     * or less when less storage is left, read in the same transaction. Answers the bytes reserved.
     */
    reserveUpTo(request: ReservationRequest): Promise<number | Exclude<ReserveOutcome, 'reserved'>> {
      return reserveBytes(request, true);
    },

    /** Extends the lease; false when the reservation is gone (settled, or given back as expired). */
    async renew(reservationId: string, leaseUntil: string): Promise<boolean> {
      const result = await db
        .updateTable('upload_reservations')
        .set({ lease_until: leaseUntil })
        .where('id', '=', reservationId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /**
     * A failed or aborted upload: deletes the reservation, gives back its bytes and queues
     * its blob (whatever part of it was stored) for deletion, in one transaction. Only the
     * call that deleted the row gives back, so a reservation expired meanwhile counts once.
     * Answers the queued blob key, or undefined when the reservation was already gone.
     */
    abandon(userId: string, reservationId: string): Promise<string | undefined> {
      return db.transaction().execute(async (trx) => {
        await lockUsers(trx, dialect, [userId]);
        const reservation = await trx
          .deleteFrom('upload_reservations')
          .where('id', '=', reservationId)
          .where('user_id', '=', userId)
          .returning(['bytes', 'blob_key'])
          .executeTakeFirst();
        if (!reservation) return undefined;
        await changeStorageUsed(trx, userId, -Number(reservation.bytes));
        await queueBlobDeletions(trx, [reservation.blob_key]);
        return reservation.blob_key;
      });
    },
  };
}

export type UploadReservationsRepository = ReturnType<typeof createUploadReservationsRepository>;
