/** A passkey's name, trimmed: 1 to this many characters (docs/api.md#passkeys). */
export const PASSKEY_NAME_MAX_LENGTH = 64;
