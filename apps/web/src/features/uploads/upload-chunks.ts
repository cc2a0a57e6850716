/**
 * How a file travels (docs/decisions/0026-browser-resumable-uploads.md): small files in one
 * multipart request, larger ones over tus in chunks sized to the file.
 */

const MiB = 1024 * 1024;

/**
 * Files below this size keep the single POST /api/files/upload: a lost connection costs
 * seconds at most, and one request is cheaper than tus's creation, PATCH and HEAD.
 */
export const SINGLE_REQUEST_MAX_BYTES = 8 * MiB;

/** Chunks stay at or above this, so a large file does not become thousands of requests. */
export const MIN_CHUNK_BYTES = 16 * MiB;

/** Chunks stay at or below this: under the 100 MB request limit of common proxies (Cloudflare's). */
export const MAX_CHUNK_BYTES = 64 * MiB;

/** A file travels in about this many chunks between the two bounds. */
const TARGET_CHUNKS = 32;

/** True when `size` bytes go over tus (resumable, pausable) instead of one request. */
export function travelsResumably(size: number): boolean {
  return size >= SINGLE_REQUEST_MAX_BYTES;
}

/**
 * The PATCH size for a file of `size` bytes: about a thirty-second of the file, rounded up
 * to whole MiB, within 16–64 MiB. A retry resends at most one chunk.
 */
export function chunkSizeFor(size: number): number {
  const target = Math.ceil(size / TARGET_CHUNKS / MiB) * MiB;
  return Math.min(MAX_CHUNK_BYTES, Math.max(MIN_CHUNK_BYTES, target));
}

/**
 * Waits between attempts after a lost connection or a 5xx: quick at first, then every
 * 30 s for about ten minutes. The count starts again once bytes get through, so only an
 * outage longer than that fails the upload (coming back online retries at once).
 */
export const RETRY_DELAYS_MS: readonly number[] = [0, 1000, 3000, 5000, 10_000, 20_000, ...Array<number>(18).fill(30_000)];

/** Answers that say "try again": a lost connection (0), the server or a proxy in trouble, a draining node. */
const RETRYABLE_STATUSES = new Set([0, 500, 502, 503, 504]);

/**
 * Whether tus-js-client tries a request again after this status. Besides the transient
 * ones, 409 and 423 are tus's "ask the offset again". Every other answer is final: 507
 * (no storage left) and 413 are refusals to show, not failures to repeat.
 */
export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status) || status === 409 || status === 423;
}
