import { createHash, randomInt } from 'node:crypto';

/** No 0/o, 1/l: people read these off one screen and type them into another. */
const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
const GROUPS = 5;
const GROUP_LENGTH = 6;
/** 30 characters of a 32-letter alphabet: 150 random bits, beyond any guessing. */
const SECRET_LENGTH = GROUPS * GROUP_LENGTH;
const SHAPE = new RegExp(`^[${ALPHABET}]{${SECRET_LENGTH}}$`);

/** A new app password, in dash-separated groups for reading: `abcdef-ghijkm-…`. */
export function newAppPasswordSecret(): string {
  const groups = Array.from({ length: GROUPS }, () =>
    Array.from({ length: GROUP_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join(''),
  );
  return groups.join('-');
}

/** Dashes, spaces and case do not matter when a client sends the secret back. */
const normalize = (secret: string) => secret.replace(/[\s-]/g, '').toLowerCase();

/** Whether a password could be an app password at all (else only the account password can match). */
export function looksLikeAppPassword(password: string): boolean {
  return SHAPE.test(normalize(password));
}

/**
 * What is stored: a plain SHA-256, fast enough to check on every WebDAV request. A slow
 * hash protects guessable passwords; 150 random bits are not guessable (decision 0028).
 */
export function hashAppPasswordSecret(secret: string): string {
  return createHash('sha256').update(normalize(secret)).digest('hex');
}
