/**
 * A broken or cut-off body: busboy reports one with a plain Error (no code, no other name
 * or class), or closes the file part early. System errors (ENOSPC, EIO), the addon's, the
 * databases' and S3's errors and bugs carry a code, a name or a class of their own; a
 * plain Error from elsewhere (a PostgreSQL connection lost) still reads as the body's.
 */
export function isBrokenMultipartError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code } = error as NodeJS.ErrnoException;
  if (code === 'ERR_STREAM_PREMATURE_CLOSE') return true;
  return code === undefined && error.name === 'Error' && Object.getPrototypeOf(error) === Error.prototype;
}
