import { Type, type Static } from 'typebox';
import { Id, Timestamp } from './common.ts';
import { PasskeyAssertion } from './passkeys.ts';
import { PlanId } from './plans.ts';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH } from './validation.ts';

/** The signed-in user as every client sees them. */
export const User = Type.Object({
  id: Id,
  firstName: Type.String(),
  lastName: Type.String(),
  email: Type.String(),
  createdAt: Timestamp,
  plan: PlanId,
  storageUsed: Type.Number(),
  storageLimit: Type.Number(),
  twoFactorEnabled: Type.Boolean(),
  /** The address was proven by a link mailed to it; private shares need it. */
  emailVerified: Type.Boolean(),
  /** `admin` when the verified address is listed in ADMIN_EMAILS. */
  role: Type.Union([Type.Literal('user'), Type.Literal('admin')]),
  /**
   * False for an account made through single sign-on until a password is set: what asks
   * for the password asks it to sign in at the provider again instead (docs/api.md#single-sign-on).
   */
  hasPassword: Type.Boolean(),
});
export type User = Static<typeof User>;

/**
 * Shapes only: lengths are bounded here; trimming, e-mail form and password length are
 * checked by the server with the shared validators so that the messages read well.
 */
export const RegisterBody = Type.Object({
  firstName: Type.String({ maxLength: NAME_MAX_LENGTH }),
  lastName: Type.String({ maxLength: NAME_MAX_LENGTH }),
  email: Type.String({ maxLength: EMAIL_MAX_LENGTH }),
  password: Type.String({ maxLength: PASSWORD_MAX_LENGTH }),
});
export type RegisterBody = Static<typeof RegisterBody>;

export const LoginBody = Type.Object({
  email: Type.String({ maxLength: EMAIL_MAX_LENGTH }),
  password: Type.String({ maxLength: PASSWORD_MAX_LENGTH }),
  totpCode: Type.Optional(Type.String({ maxLength: 32 })),
  /** With two-factor on, one of the account's passkeys instead of a code (docs/api.md#passkeys). */
  passkey: Type.Optional(PasskeyAssertion),
});
export type LoginBody = Static<typeof LoginBody>;

export const AuthResponse = Type.Object({ token: Type.String(), user: User });

/** A refused sign-in; `twoFactorRequired` when the password was right and a code is needed. */
export const LoginErrorBody = Type.Object({
  error: Type.String(),
  code: Type.Optional(Type.String()),
  twoFactorRequired: Type.Optional(Type.Boolean()),
  /** With `twoFactorRequired`: the account has a passkey, which may stand in for the code. */
  passkeyAvailable: Type.Optional(Type.Boolean()),
});
export type AuthResponse = Static<typeof AuthResponse>;

export const ProfileResponse = Type.Object({ user: User });
export type ProfileResponse = Static<typeof ProfileResponse>;

/** A token mailed to the account's address: 43 characters now; bounded, never trusted. */
const MailedToken = Type.String({ maxLength: 256 });

export const VerifyEmailBody = Type.Object({ token: MailedToken });
export type VerifyEmailBody = Static<typeof VerifyEmailBody>;

export const ForgotPasswordBody = Type.Object({ email: Type.String({ maxLength: EMAIL_MAX_LENGTH }) });
export type ForgotPasswordBody = Static<typeof ForgotPasswordBody>;

export const ResetPasswordBody = Type.Object({
  token: MailedToken,
  password: Type.String({ maxLength: PASSWORD_MAX_LENGTH }),
  /**
   * Whether every app password is revoked with the reset; true when left out, as someone
   * who lost the password may have lost a device or a session that made one (decision 0037).
   */
  revokeAppPasswords: Type.Optional(Type.Boolean()),
});
export type ResetPasswordBody = Static<typeof ResetPasswordBody>;
