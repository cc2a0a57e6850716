import { createHmac, randomBytes } from 'node:crypto';
import { setBounded } from './bounded-map.ts';
import type { Clock } from './clock.ts';

export type VerifyPassword = (passwordHash: string, password: string) => Promise<boolean>;

/**
 * Remembers, for a while, which (stored hash, password) pairs a slow verify accepted, so a
 * client that sends the same password on every request (WebDAV's Basic auth) pays the
 * argon2 cost once, not per request. A memo of a pure function: the stored hash is part of
 * the key and is read fresh by the caller, so a changed password misses at once, and
 * nothing stays cached that another node could have changed. Only successes are kept;
 * keys are HMACs under a per-process random key, so the memory never holds a password.
 */
export function rememberVerifiedPasswords(
  verify: VerifyPassword,
  options: { maxEntries: number; ttlMs: number; clock: Clock },
): VerifyPassword {
  const key = randomBytes(32);
  /** Key → when it expires; a Map keeps insertion order, so the first entry is the oldest. */
  const verified = new Map<string, number>();
  const entryOf = (passwordHash: string, password: string) =>
    createHmac('sha256', key).update(passwordHash).update('\0').update(password).digest('base64');

  return async (passwordHash, password) => {
    const entry = entryOf(passwordHash, password);
    const now = options.clock.now().getTime();
    const expiresAt = verified.get(entry);
    if (expiresAt !== undefined && expiresAt > now) return true;
    verified.delete(entry);
    if (!(await verify(passwordHash, password))) return false;
    setBounded(verified, entry, now + options.ttlMs, options.maxEntries);
    return true;
  };
}
