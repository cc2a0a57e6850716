import { AppError } from '../../lib/errors.ts';

/**
 * Cursors are opaque to clients: base64url of the account and a position in its journal.
 * The account is checked, so another account's cursor shows nothing; the position is a
 * number the database keeps, so a cursor survives restarts and works on every node.
 */
const VERSION = '1';

export function encodeCursor(userId: string, seq: number): string {
  return Buffer.from(`${VERSION}:${userId}:${seq}`).toString('base64url');
}

/** The position a cursor names in this account's journal; a 400 for anything else. */
export function decodeCursor(cursor: string, userId: string): number {
  const [version, owner, position, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split(':');
  const seq = Number(position);
  if (version !== VERSION || rest.length > 0 || !/^[0-9]{1,15}$/.test(position ?? '') || !Number.isSafeInteger(seq)) {
    throw new AppError(400, 'INVALID_CURSOR', 'This cursor is not one the server gave. Ask for /api/changes/latest again.');
  }
  if (owner !== userId) throw new AppError(400, 'INVALID_CURSOR', 'This cursor belongs to another account.');
  return seq;
}
