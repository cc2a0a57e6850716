import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.ts';
import { decodeCursor, encodeCursor } from './change-cursors.ts';

const refusalOf = (run: () => unknown): AppError => {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('change cursors', () => {
  it('give back the position they were made from, for the account they were made for', () => {
    for (const seq of [0, 1, 999, 2 ** 40]) expect(decodeCursor(encodeCursor('user_1', seq), 'user_1')).toBe(seq);
    expect(encodeCursor('user_1', 5)).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('refuse another account’s cursor and anything the server did not make with 400', () => {
    expect(refusalOf(() => decodeCursor(encodeCursor('someone-else', 5), 'user_1'))).toMatchObject({ status: 400, code: 'INVALID_CURSOR' });
    const forged = (text: string) => Buffer.from(text).toString('base64url');
    for (const cursor of [
      '',
      'nope',
      forged('2:user_1:5'),
      forged('1:user_1:-1'),
      forged('1:user_1:1.5'),
      forged('1:user_1:5:6'),
      forged('1:user_1:99999999999999999'),
    ]) {
      expect(
        refusalOf(() => decodeCursor(cursor, 'user_1')),
        cursor,
      ).toMatchObject({ status: 400, code: 'INVALID_CURSOR' });
    }
  });
});
