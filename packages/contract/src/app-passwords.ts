import { Type, type Static } from 'typebox';
import { Id, NullableString, Timestamp } from './common.ts';
import { PASSWORD_MAX_LENGTH } from './validation.ts';

export { APP_PASSWORD_NAME_MAX_LENGTH, APP_PASSWORDS_PER_USER } from './app-password-limits.ts';

/** One app password as listed: never the secret, which is shown only when it is made. */
export const AppPassword = Type.Object({
  id: Id,
  /** The device or client it is for, as the user named it. */
  name: Type.String(),
  createdAt: Timestamp,
  /** The last WebDAV request it signed in (to the minute), or null when never used. */
  lastUsedAt: NullableString(Type.String({ format: 'date-time' })),
});
export type AppPassword = Static<typeof AppPassword>;

export const AppPasswordsResponse = Type.Object({ appPasswords: Type.Array(AppPassword) });
export type AppPasswordsResponse = Static<typeof AppPasswordsResponse>;

/**
 * POST /api/user/app-passwords. The name is bounded loosely here; the server trims and
 * answers a clear 400. An app password outlives the session that makes it, so making one
 * takes what signing in takes (docs/decisions/0037-app-password-policy.md).
 */
export const CreateAppPasswordBody = Type.Object(
  {
    name: Type.String({ maxLength: 1000 }),
    /** The account password; a wrong one is a 400 counted as a failed sign-in. */
    password: Type.String({ maxLength: PASSWORD_MAX_LENGTH }),
    /** A current authenticator code (or a recovery code), required while two-factor sign-in is on. */
    totpCode: Type.Optional(Type.String({ maxLength: 32 })),
  },
  { additionalProperties: false },
);
export type CreateAppPasswordBody = Static<typeof CreateAppPasswordBody>;

/** The new app password, with its secret: the only time the secret leaves the server. */
export const CreatedAppPasswordResponse = Type.Object({
  id: Id,
  name: Type.String(),
  password: Type.String(),
  createdAt: Timestamp,
});
export type CreatedAppPasswordResponse = Static<typeof CreatedAppPasswordResponse>;

export const AppPasswordParams = Type.Object({ id: Id });
export type AppPasswordParams = Static<typeof AppPasswordParams>;
