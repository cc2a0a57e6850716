import { ApiError } from '../../lib/api-client';

/** Answers about the password asked again (re-authentication, docs/api.md#email-verification), not about a code or the request. */
const PASSWORD_CODES = new Set(['INCORRECT_PASSWORD', 'PASSWORD_REQUIRED', 'RATE_LIMITED', 'REAUTHENTICATION_REQUIRED']);

/** Whether a failed call is about the re-entered password: the dialog shows it under that field. */
export function isPasswordProblem(error: unknown): boolean {
  return error instanceof ApiError && error.code !== undefined && PASSWORD_CODES.has(error.code);
}
