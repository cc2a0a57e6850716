import { Type, type Static } from 'typebox';
import { Id, NullableString, Timestamp } from './common.ts';

export { PASSKEY_NAME_MAX_LENGTH, PASSKEYS_PER_USER } from './passkey-limits.ts';

/** base64url, bounded: WebAuthn allows credential ids up to 1023 bytes and small CBOR blobs. */
const Base64Url = (maxLength: number) => Type.String({ maxLength, pattern: '^[A-Za-z0-9_-]*$' });
const CredentialId = Base64Url(1400);

/** One passkey as listed: never its key. */
export const Passkey = Type.Object({
  id: Id,
  /** As the user named it (trimmed, 1 to 64 characters). */
  name: Type.String(),
  createdAt: Timestamp,
  /** The last sign-in it made, or null when it has made none. */
  lastUsedAt: NullableString(Type.String({ format: 'date-time' })),
  /** True for a synced passkey that says it is backed up (a password manager, iCloud Keychain): losing one device does not lose it. */
  backedUp: Type.Boolean(),
});
export type Passkey = Static<typeof Passkey>;

export const PasskeysResponse = Type.Object({ passkeys: Type.Array(Passkey) });
export type PasskeysResponse = Static<typeof PasskeysResponse>;

/**
 * The options to hand to the browser's WebAuthn call (@simplewebauthn/browser takes them
 * as they are), and the ceremony they belong to: sent back with the answer, used once, for
 * 5 minutes.
 */
export const PasskeyOptionsResponse = Type.Object({
  ceremonyId: Id,
  options: Type.Record(Type.String(), Type.Unknown()),
});
export type PasskeyOptionsResponse = Static<typeof PasskeyOptionsResponse>;

/** What navigator.credentials.create() answered, as @simplewebauthn/browser serialises it. */
export const RegistrationCredential = Type.Object({
  id: CredentialId,
  rawId: CredentialId,
  type: Type.Literal('public-key'),
  response: Type.Object({
    clientDataJSON: Base64Url(4096),
    attestationObject: Base64Url(65536),
    authenticatorData: Type.Optional(Base64Url(65536)),
    transports: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 10 })),
    publicKeyAlgorithm: Type.Optional(Type.Integer()),
    publicKey: Type.Optional(Base64Url(65536)),
  }),
  authenticatorAttachment: Type.Optional(Type.String({ maxLength: 32 })),
  clientExtensionResults: Type.Record(Type.String(), Type.Unknown()),
});
export type RegistrationCredential = Static<typeof RegistrationCredential>;

/** What navigator.credentials.get() answered, as @simplewebauthn/browser serialises it. */
export const AuthenticationCredential = Type.Object({
  id: CredentialId,
  rawId: CredentialId,
  type: Type.Literal('public-key'),
  response: Type.Object({
    clientDataJSON: Base64Url(4096),
    authenticatorData: Base64Url(65536),
    signature: Base64Url(4096),
    userHandle: Type.Optional(Base64Url(128)),
  }),
  authenticatorAttachment: Type.Optional(Type.String({ maxLength: 32 })),
  clientExtensionResults: Type.Record(Type.String(), Type.Unknown()),
});
export type AuthenticationCredential = Static<typeof AuthenticationCredential>;

/** POST /api/user/passkeys: the answer to a registration's options, and the name to list it under. */
export const CreatePasskeyBody = Type.Object(
  { ceremonyId: Id, name: Type.String({ maxLength: 1000 }), credential: RegistrationCredential },
  { additionalProperties: false },
);
export type CreatePasskeyBody = Static<typeof CreatePasskeyBody>;

/** A passkey's answer to a sign-in's options: POST /api/auth/passkey, or the second factor of POST /api/auth/login. */
export const PasskeyAssertion = Type.Object({ ceremonyId: Id, credential: AuthenticationCredential }, { additionalProperties: false });
export type PasskeyAssertion = Static<typeof PasskeyAssertion>;

/** PATCH /api/user/passkeys/:id. The name is bounded loosely here; the server trims and answers a clear 400. */
export const RenamePasskeyBody = Type.Object({ name: Type.String({ maxLength: 1000 }) }, { additionalProperties: false });
export type RenamePasskeyBody = Static<typeof RenamePasskeyBody>;

export const PasskeyParams = Type.Object({ id: Id });
export type PasskeyParams = Static<typeof PasskeyParams>;
