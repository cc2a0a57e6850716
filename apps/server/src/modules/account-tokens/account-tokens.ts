import { createHash, randomBytes } from 'node:crypto';

/** A token for a link mailed to the user: 256 random bits, URL-safe. */
export function newMailedToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What is stored instead of the token: a database reader cannot open the link. A plain
 * SHA-256 is enough for 256 random bits (nothing to guess, so nothing to slow down).
 */
export function hashMailedToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
