/** Rules shared by the web forms and the server, so both say the same thing. */

export const PASSWORD_MIN_LENGTH = 6;
/** argon2 hashes any length, but an unbounded password is a cheap way to burn CPU. */
export const PASSWORD_MAX_LENGTH = 1024;
export const NAME_MAX_LENGTH = 255;
export const EMAIL_MAX_LENGTH = 254;

/** E-mail addresses are compared and stored trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A pragmatic form check (one @, a dot in the domain, no spaces), as browsers apply. */
export function isValidEmail(email: string): boolean {
  return email.length <= EMAIL_MAX_LENGTH && /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(email);
}

export function isValidPassword(password: string): boolean {
  return password.length >= PASSWORD_MIN_LENGTH && password.length <= PASSWORD_MAX_LENGTH;
}

/** A person's name: trimmed, not blank, at most NAME_MAX_LENGTH characters. */
export function normalizeName(name: string): string | null {
  const trimmed = name.trim();
  return trimmed.length > 0 && trimmed.length <= NAME_MAX_LENGTH ? trimmed : null;
}

/** File and folder names: 1–255 characters after cleaning. */
export const ITEM_NAME_MAX_LENGTH = 255;

/**
 * Unicode's bidirectional controls: embeddings and overrides (U+202A–U+202E), isolates
 * (U+2066–U+2069) and the marks (U+200E, U+200F, U+061C). In a name they only disguise it:
 * `invoice\u202Efdp.exe` shows as `invoiceexe.pdf`.
 */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Text without bidirectional controls, so it reads in the order it is stored. */
export function withoutBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}

/**
 * A file or folder name as a display string: control characters (bidirectional ones
 * included) and path separators removed, trimmed; null when nothing usable is left or it
 * is `.` or `..`.
 */
export function cleanItemName(name: string): string | null {
  // eslint-disable-next-line no-control-regex -- stripping control characters is the point
  const cleaned = withoutBidiControls(name).replace(/[\u0000-\u001f\u007f-\u009f/\\]/g, '').trim();
  if (cleaned === '' || cleaned === '.' || cleaned === '..') return null;
  return [...cleaned].length <= ITEM_NAME_MAX_LENGTH ? cleaned : null;
}
