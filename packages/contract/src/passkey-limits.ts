/** A passkey's name, trimmed: 1 to this many characters (docs/api.md#passkeys). */
export const PASSKEY_NAME_MAX_LENGTH = 64;

/** The most passkeys one account holds: each is a way in, listed and mailed about. */
export const PASSKEYS_PER_USER = 50;
