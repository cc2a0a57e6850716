import { badRequest } from '../../lib/errors.ts';

/**
 * The console's keyset cursors: where a page ended, as opaque base64url JSON. A cursor is
 * only read back into a query after its shape is checked, so a forged one is a 400.
 */
export function encodeCursor(position: object): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

export function decodeCursor<T>(cursor: string, isPosition: (value: unknown) => value is T): T {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    value = undefined;
  }
  if (!isPosition(value)) throw badRequest('This cursor is not valid for this list. Start again from the first page.', 'INVALID_CURSOR');
  return value;
}

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
