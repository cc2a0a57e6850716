import { Type, type Static } from 'typebox';
import { Timestamp } from './common.ts';
import { NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH } from './validation.ts';

export const UpdateProfileBody = Type.Object({
  firstName: Type.String({ maxLength: NAME_MAX_LENGTH }),
  lastName: Type.String({ maxLength: NAME_MAX_LENGTH }),
});
export type UpdateProfileBody = Static<typeof UpdateProfileBody>;

export const ChangePasswordBody = Type.Object({
  currentPassword: Type.String({ maxLength: PASSWORD_MAX_LENGTH }),
  newPassword: Type.String({ maxLength: PASSWORD_MAX_LENGTH }),
});
export type ChangePasswordBody = Static<typeof ChangePasswordBody>;

/** PUT /api/user/password: app passwords survive a change, so the answer says how many still sign in (decision 0037). */
export const ChangePasswordResponse = Type.Object({
  message: Type.String(),
  /** The account's app passwords, which keep working with the new password. */
  appPasswordsRemaining: Type.Integer({ minimum: 0 }),
});
export type ChangePasswordResponse = Static<typeof ChangePasswordResponse>;

export const TwoFactorSetupResponse = Type.Object({
  secret: Type.String(),
  otpauthUrl: Type.String(),
  qrCodeDataUrl: Type.String(),
});
export type TwoFactorSetupResponse = Static<typeof TwoFactorSetupResponse>;

export const TwoFactorCodeBody = Type.Object({ code: Type.String({ maxLength: 32 }) });
export type TwoFactorCodeBody = Static<typeof TwoFactorCodeBody>;

/** The account's password, asked again before an action a stolen session must not take. */
const ReauthPassword = Type.String({ maxLength: PASSWORD_MAX_LENGTH });

/** Turning two-factor off: a current or recovery code, and the account's password. */
export const TwoFactorDisableBody = Type.Object({ code: Type.String({ maxLength: 32 }), password: ReauthPassword });
export type TwoFactorDisableBody = Static<typeof TwoFactorDisableBody>;

/** DELETE /api/user/account: the account's password. */
export const DeleteAccountBody = Type.Object({ password: ReauthPassword });
export type DeleteAccountBody = Static<typeof DeleteAccountBody>;

export const RecoveryCodesResponse = Type.Object({ recoveryCodes: Type.Array(Type.String()) });
export type RecoveryCodesResponse = Static<typeof RecoveryCodesResponse>;

export const ActivityType = Type.Union([
  Type.Literal('sign_in'),
  Type.Literal('upload'),
  /** (+) A file or folder renamed (`item`, `from`, `name`), moved (`item`, `name`) or put in Trash (`item`, `name`): names as they were then. */
  Type.Literal('rename'),
  Type.Literal('move'),
  Type.Literal('delete'),
  /** (+) A copy of a file or folder: `item`, `name`, `size` and the number of `files`, one entry per copy. */
  Type.Literal('copy'),
  Type.Literal('share'),
  Type.Literal('plan_change'),
  Type.Literal('password_change'),
  Type.Literal('two_factor'),
]);
export type ActivityType = Static<typeof ActivityType>;

/** One line of the account's recent activity; `details` names what it was about. */
export const ActivityEntry = Type.Object({
  type: ActivityType,
  details: Type.Record(Type.String(), Type.String()),
  createdAt: Timestamp,
});
export type ActivityEntry = Static<typeof ActivityEntry>;

/** The Profile page's real values: when the account began, the last sign-in, counts, recent activity. */
export const AccountOverviewResponse = Type.Object({
  createdAt: Timestamp,
  lastSignIn: Type.Union([Type.Object({ at: Timestamp, device: Type.String() }), Type.Null()]),
  counts: Type.Object({ files: Type.Integer(), folders: Type.Integer(), shares: Type.Integer() }),
  activity: Type.Array(ActivityEntry),
});
export type AccountOverviewResponse = Static<typeof AccountOverviewResponse>;

export const NotificationType = Type.Union([
  Type.Literal('folder_shared'),
  Type.Literal('file_shared'),
  Type.Literal('storage_alert'),
  Type.Literal('new_sign_in'),
  Type.Literal('password_changed'),
  /** Files received through an upload link: one notification per link and window, details `{shareId, folder, count, names}`. */
  Type.Literal('file_request_uploads'),
]);
export type NotificationType = Static<typeof NotificationType>;

/** An in-app notification (the header bell), when the user's notifications.push is on. */
export const AppNotification = Type.Object({
  id: Type.String(),
  type: NotificationType,
  details: Type.Record(Type.String(), Type.String()),
  read: Type.Boolean(),
  createdAt: Timestamp,
});
export type AppNotification = Static<typeof AppNotification>;

export const NotificationsResponse = Type.Object({ notifications: Type.Array(AppNotification), unread: Type.Integer() });
export type NotificationsResponse = Static<typeof NotificationsResponse>;
