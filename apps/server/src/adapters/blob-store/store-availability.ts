import { S3ServiceException, type S3Client } from '@aws-sdk/client-s3';
import { insufficientStorage, storageUnavailable } from '../../lib/errors.ts';

/**
 * After a request found the store unavailable (every try failed), how long further
 * requests fail at once instead of each waiting out the timeouts again: the cleanup after a
 * failed upload (abort, delete) then costs nothing, so its answer comes when the upload's
 * own tries ran out. The same as the Retry-After a client is told.
 */
const FAIL_FAST_MS = 5_000;

/** Errors of the network or of Node's sockets that say the store could not be reached or answer. */
const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
]);
const THROTTLING_NAMES = new Set(['SlowDown', 'Throttling', 'ThrottlingException', 'RequestTimeout', 'RequestTimeTooSkewed']);

/**
 * Whether the store says it has no room left: MinIO answers `507 XMinioStorageFull` when its
 * disks fill up. The same 507 as a full local disk, and not a store that is down.
 */
export function isStoreFull(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.$metadata.httpStatusCode === 507 || error.name === 'XMinioStorageFull');
}

/**
 * Whether a failed S3 request says the store is down, overloaded or too slow, as opposed to
 * a refusal of this request (a missing key, a denied credential, a missing bucket: those are
 * answered as before).
 */
export function isStoreUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'TimeoutError' || NETWORK_ERROR_CODES.has((error as NodeJS.ErrnoException).code ?? '')) return true;
  if (!(error instanceof S3ServiceException) || isStoreFull(error)) return false;
  const status = error.$metadata.httpStatusCode ?? 0;
  return status >= 500 || status === 429 || THROTTLING_NAMES.has(error.name);
}

/**
 * Makes every request of `client` (lib-storage's uploads included) end as the 503 of
 * lib/errors.ts's storageUnavailable when the store is unavailable once the SDK's retries
 * are spent, and answer so at once for a few seconds after; a store that says it is full
 * ends as the 507 of insufficientStorage. Kept by each node for itself: it
 * says how this node reaches the store, decides nothing another node must agree on, and
 * is lost harmlessly on a restart.
 */
export function failFastWhileUnavailable(client: S3Client, clock: () => number = Date.now): void {
  let unavailableUntil = 0;
  client.middlewareStack.add(
    (next) => async (args) => {
      if (clock() < unavailableUntil) throw storageUnavailable();
      try {
        return await next(args);
      } catch (error) {
        if (isStoreFull(error)) throw Object.assign(insufficientStorage(), { cause: error });
        if (!isStoreUnavailable(error)) throw error;
        unavailableUntil = clock() + FAIL_FAST_MS;
        throw Object.assign(storageUnavailable(), { cause: error });
      }
    },
    // Initialize comes before the retry step: this sees a request's outcome once every try is over.
    { step: 'initialize', name: 'failFastWhileUnavailable' },
  );
}
