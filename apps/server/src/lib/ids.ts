import { randomBytes } from 'node:crypto';

/** 128 random bits, URL-safe: ids that cannot be guessed or enumerated. */
export function newId(): string {
  return randomBytes(16).toString('base64url');
}
