import { Type, type Static } from 'typebox';
import { Id, NullableString, Timestamp } from './common.ts';

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

/** POST /api/user/app-passwords. Bounded loosely here; the server trims and answers a clear 400. */
export const CreateAppPasswordBody = Type.Object({ name: Type.String({ maxLength: 1000 }) }, { additionalProperties: false });
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
