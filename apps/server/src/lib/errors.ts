/**
 * The one error type services throw. The error handler turns it into
 * `{"error": message, "code": code}` with its status; the message is shown to users.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra fields for the body, such as `twoFactorRequired`. */
    readonly details: Record<string, unknown> = {},
    /** Extra response headers, such as `Retry-After`. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code = 'BAD_REQUEST') => new AppError(400, code, message);
export const unauthorized = (message = 'Please sign in to continue', code = 'UNAUTHORIZED') => new AppError(401, code, message);
export const forbidden = (message: string, code = 'FORBIDDEN') => new AppError(403, code, message);
export const notFound = (message = 'Not found', code = 'NOT_FOUND') => new AppError(404, code, message);
export const conflict = (message: string, code = 'CONFLICT') => new AppError(409, code, message);

/** A folder whose deepest path cannot be named in a zip (the limit is the format's). */
export const pathTooLongForZip = () =>
  new AppError(
    409,
    'PATH_TOO_LONG_FOR_ZIP',
    'This cannot be downloaded as a zip: a path inside it is longer than the 65,535 bytes a zip entry name can hold. Move or rename folders to shorten it.',
  );

/** A buffered transfer that would pass the memory cap of all transfers (lib/transfer-budget.ts). */
export const serverBusy = () =>
  new AppError(
    503,
    'SERVER_BUSY',
    'The server is sending many downloads at once. Please try again in a few seconds.',
    {},
    { 'Retry-After': '5' },
  );

/** The store the limits share cannot be reached: the limited action fails closed (docs/decisions/0019). */
export const limitsUnavailable = () =>
  new AppError(
    503,
    'LIMITS_UNAVAILABLE',
    'This is unavailable for a moment. Please try again in a few seconds.',
    {},
    { 'Retry-After': '5' },
  );

/** A service every request needs (the database) cannot be reached: worth retrying shortly. */
export const serviceUnavailable = () =>
  new AppError(
    503,
    'SERVICE_UNAVAILABLE',
    'CloudVault is unavailable for a moment. Please try again in a few seconds.',
    {},
    { 'Retry-After': '5' },
  );

/**
 * The server's own disk has no room left for an upload (ENOSPC, EDQUOT): not the user's
 * quota (QUOTA_EXCEEDED), and nothing the user did. Nothing of the upload is kept.
 */
export const insufficientStorage = () =>
  new AppError(
    507,
    'INSUFFICIENT_STORAGE',
    'The server has no room left for this upload, so nothing of it was kept. Please try again later.',
  );

/** The object store failed or did not answer in time (docs/decisions/0040-storage-faults.md). */
export const storageUnavailable = () =>
  new AppError(
    503,
    'STORAGE_UNAVAILABLE',
    'File storage is not answering right now. Please try again in a few seconds.',
    {},
    { 'Retry-After': '5' },
  );

export function tooManyRequests(retryAfterSeconds: number): AppError {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return new AppError(
    429,
    'RATE_LIMITED',
    `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    {},
    { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  );
}
