import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { isPasswordProblem } from './reauth-errors';

const answer = (status: number, code: string | undefined) => new ApiError(status, 'message', code, {}, 'message');

describe('isPasswordProblem', () => {
  it('is true for a wrong or missing password and for too many tries, false for a wrong code or anything else', () => {
    expect(isPasswordProblem(answer(400, 'INCORRECT_PASSWORD'))).toBe(true);
    expect(isPasswordProblem(answer(400, 'PASSWORD_REQUIRED'))).toBe(true);
    expect(isPasswordProblem(answer(429, 'RATE_LIMITED'))).toBe(true);
    expect(isPasswordProblem(answer(400, 'INVALID_TWO_FACTOR_CODE'))).toBe(false);
    expect(isPasswordProblem(answer(502, 'SUBSCRIPTION_NOT_CANCELED'))).toBe(false);
    expect(isPasswordProblem(answer(500, undefined))).toBe(false);
    expect(isPasswordProblem(new Error('offline'))).toBe(false);
  });
});
