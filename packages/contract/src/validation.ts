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
 * The default-ignorable characters a person still sees the effect of, so they stay
 * allowed: inside an emoji sequence a zero-width joiner between two pictographs (👨‍👩‍👧), a
 * variation selector after a pictograph or keycap base (❤️, #️⃣) and the tags of a
 * subdivision flag (🏴󠁧󠁢󠁳󠁣󠁴󠁿); and the joiners between letters of the scripts whose spelling
 * needs them (Persian's ZWNJ in نامه‌ها, Indic conjuncts). Everywhere else they only make
 * two names that look alike differ (docs/decisions/0038-name-normalisation.md).
 */
const VISIBLE_IGNORABLES = new RegExp(
  [
    String.raw`(?<=\p{Extended_Pictographic}(?:[\u{1F3FB}-\u{1F3FF}]|\uFE0F)?)\u200D(?=\p{Extended_Pictographic})`,
    String.raw`(?<=[\p{Extended_Pictographic}#*0-9])(?:\uFE0E|\uFE0F)`,
    String.raw`(?<=\u{1F3F4}[\u{E0020}-\u{E007E}]*)[\u{E0020}-\u{E007F}]`,
    String.raw`(?<=[\p{sc=Arabic}\p{sc=Syriac}\p{sc=Nko}\p{sc=Devanagari}\p{sc=Bengali}\p{sc=Gurmukhi}\p{sc=Gujarati}\p{sc=Oriya}\p{sc=Tamil}\p{sc=Telugu}\p{sc=Kannada}\p{sc=Malayalam}\p{sc=Sinhala}]\p{M}*)(?:\u200C|\u200D)(?=\p{L}|\p{M})`,
  ].join('|'),
  'gu',
);

/**
 * True when the text holds a character Unicode marks Default_Ignorable_Code_Point (zero-width
 * space, joiners, soft hyphen, variation selectors, byte order mark…) outside the places
 * VISIBLE_IGNORABLES allows: such a character is drawn as nothing, so a name holding one
 * looks the same as a name without it.
 */
export function hasInvisibleCharacter(text: string): boolean {
  return /\p{Default_Ignorable_Code_Point}/u.test(withoutBidiControls(text).replace(VISIBLE_IGNORABLES, ''));
}

// eslint-disable-next-line no-control-regex -- stripping control characters is the point
const CONTROL_CHARACTERS_AND_SLASHES = /[\u0000-\u001f\u007f-\u009f/\\]/g;

/**
 * A file or folder name as a display string: control characters (bidirectional ones
 * included) and path separators removed, trimmed, in Unicode's composed form (NFC: `é` is
 * one character whether a keyboard or macOS's decomposed `e` + accent sent it); null when
 * nothing usable is left, it is `.` or `..`, or it holds an invisible character
 * (hasInvisibleCharacter).
 */
export function cleanItemName(name: string): string | null {
  const composed = withoutBidiControls(name).replace(CONTROL_CHARACTERS_AND_SLASHES, '').normalize('NFC');
  // Checked before trimming, which would quietly drop a leading byte order mark.
  if (hasInvisibleCharacter(composed)) return null;
  const cleaned = composed.trim();
  if (cleaned === '' || cleaned === '.' || cleaned === '..') return null;
  return [...cleaned].length <= ITEM_NAME_MAX_LENGTH ? cleaned : null;
}

/**
 * What makes two names in one folder the same name: the composed form (NFC) lower-cased
 * by Unicode's default, locale-free mapping (`Äpfel` = `äpfel` = `A\u0308pfel`). Simple
 * lower-casing, not full case folding: `ß` and `ss`, or `ı` and `i`, stay different names,
 * and `İ` lowers to `i̇`, matching neither `I` nor `i`. Stored beside each name (`name_key`)
 * and compared by the database, so every lookup by name folds case the same way on SQLite
 * and PostgreSQL.
 */
export function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase().normalize('NFC');
}
