import { Type, type Static } from 'typebox';
import { Id, NullableString, Timestamp } from './common.ts';
import { User } from './accounts.ts';
import { PlanId } from './plans.ts';
import { BillingHistoryItem, HistoryEntry, Subscription } from './subscriptions.ts';
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH } from './validation.ts';

/**
 * The operator console (docs/decisions/0029-operator-console.md). Every route under
 * /api/admin answers 401 signed out and 403 to an account whose `role` is not `admin`.
 * Operators see accounts, plans, sizes and counts; never a file's name or contents.
 *
 *   GET    /api/admin/users                          AdminUsersQuery → AdminUsersResponse
 *   GET    /api/admin/users/:id                      → AdminUserDetailResponse
 *   PATCH  /api/admin/users/:id                      AdminUserPatchBody → AdminUserResponse
 *   POST   /api/admin/users/:id/resend-verification  AdminActionBody → MessageBody
 *   POST   /api/admin/users/:id/send-password-reset  AdminActionBody → MessageBody
 *   DELETE /api/admin/users/:id                      AdminDeleteUserBody → 204
 *   GET    /api/admin/stats                          → AdminStatsResponse
 *   GET    /api/admin/audit                          AdminAuditQuery → AdminAuditResponse
 *
 * Errors: 400 bad input (reason missing, end date not in the future, wrong password), 403
 * `OPERATOR_ACCOUNT` for any action on an operator's account (the operator's own included:
 * operators act on users only), 404 unknown user, 409 the action does not apply (already
 * verified, paid subscription in place).
 */

const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const Month = Type.String({ pattern: '^\\d{4}-\\d{2}$' });
/** Why an operator acted: required for suspensions and manual plans, kept in the audit log. */
export const AdminReason = Type.String({ minLength: 1, maxLength: 500 });
const NullableTimestamp = NullableString(Type.String({ format: 'date-time' }));
/** Items per page, 1 to 200 (50 when absent); a query string, so digits. */
export const PageSize = Type.String({ pattern: '^(200|1[0-9]{2}|[1-9][0-9]?)$' });

/** `suspended`: cannot sign in, tokens answer 401, links and shares answer 404; nothing is deleted. */
export const AdminUserStatus = Type.Union([Type.Literal('active'), Type.Literal('suspended')]);
export type AdminUserStatus = Static<typeof AdminUserStatus>;

/** A user as an operator sees them in the list: the user plus status, last sign-in and counts. */
export const AdminUser = Type.Object({
  ...User.properties,
  status: AdminUserStatus,
  /** The newest successful sign-in (password, or password and code); null: never since tracking began. */
  lastSignInAt: NullableTimestamp,
  /** Live files (not in Trash). */
  filesCount: Type.Integer(),
  /** When suspended; null when active. */
  suspendedAt: NullableTimestamp,
  /** The plan was granted by an operator, free of charge, until `planEndsAt`. */
  complimentary: Type.Boolean(),
  /** End of the complimentary plan, or of the paid period; null on Free. */
  planEndsAt: NullableTimestamp,
});
export type AdminUser = Static<typeof AdminUser>;

export const AdminUserSort = Type.Union([
  /** Newest accounts first (the default). */
  Type.Literal('created'),
  /** Most storage used first. */
  Type.Literal('storage'),
  /** Most recent sign-in first; never signed in last. */
  Type.Literal('lastSignIn'),
]);
export type AdminUserSort = Static<typeof AdminUserSort>;

/** GET /api/admin/users: keyset paged; pass `nextCursor` back with the same filters and sort. */
export const AdminUsersQuery = Type.Object({
  /** Part of the e-mail, first name, last name or "first last" (case-insensitive). */
  search: Type.Optional(Type.String({ maxLength: 200 })),
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
  plan: Type.Optional(PlanId),
  status: Type.Optional(AdminUserStatus),
  sort: Type.Optional(AdminUserSort),
  limit: Type.Optional(PageSize),
});
export type AdminUsersQuery = Static<typeof AdminUsersQuery>;

export const AdminUsersResponse = Type.Object({
  users: Type.Array(AdminUser),
  /** Null on the last page. */
  nextCursor: NullableString(Type.String()),
});
export type AdminUsersResponse = Static<typeof AdminUsersResponse>;

export const AdminUserParams = Type.Object({ id: Id });
export type AdminUserParams = Static<typeof AdminUserParams>;

/** A signed-in session that has not ended (a device). */
export const AdminDevice = Type.Object({
  id: Id,
  /** Browser and system read from the user agent, e.g. "Firefox on Linux". */
  name: Type.String(),
  createdAt: Timestamp,
  expiresAt: Timestamp,
});
export type AdminDevice = Static<typeof AdminDevice>;

/** An operator-granted plan: no charge is made; the renewal job ends it at `endsAt`. */
export const ComplimentaryPlan = Type.Object({
  planId: PlanId,
  startsAt: Timestamp,
  endsAt: Timestamp,
  reason: Type.String(),
  grantedBy: NullableString(Id),
});
export type ComplimentaryPlan = Static<typeof ComplimentaryPlan>;

/** GET /api/admin/users/:id: what a support case needs, without file names. */
export const AdminUserDetailResponse = Type.Object({
  user: AdminUser,
  /** The paid subscription, if any (latest first as in GET /api/subscription/current). */
  subscription: Type.Union([Subscription, Type.Null()]),
  complimentaryPlan: Type.Union([ComplimentaryPlan, Type.Null()]),
  /** Newest first. */
  billingHistory: Type.Array(BillingHistoryItem),
  /** Newest first. */
  history: Type.Array(HistoryEntry),
  usage: Type.Object({
    filesCount: Type.Integer(),
    foldersCount: Type.Integer(),
    /** Files and folders in Trash. */
    trashedCount: Type.Integer(),
    versionsCount: Type.Integer(),
    /** Live links and private shares. */
    sharesCount: Type.Integer(),
    /** Sizes in bytes of the ten largest files, largest first; names are not shown. */
    largestFileSizes: Type.Array(Type.Integer()),
  }),
  devices: Type.Array(AdminDevice),
});
export type AdminUserDetailResponse = Static<typeof AdminUserDetailResponse>;

/**
 * PATCH /api/admin/users/:id. `suspended` true/false suspends or restores the account;
 * `plan` PRO or PREMIUM grants it free of charge until `planEndsAt` (required, in the
 * future), FREE ends a complimentary plan now. A paid subscription is never changed here.
 * `reason` is required with either.
 */
export const AdminUserPatchBody = Type.Object(
  {
    suspended: Type.Optional(Type.Boolean()),
    plan: Type.Optional(PlanId),
    planEndsAt: Type.Optional(Type.String({ format: 'date-time', maxLength: 40 })),
    reason: Type.Optional(AdminReason),
  },
  { additionalProperties: false },
);
export type AdminUserPatchBody = Static<typeof AdminUserPatchBody>;

export const AdminUserResponse = Type.Object({ user: AdminUser });
export type AdminUserResponse = Static<typeof AdminUserResponse>;

/** POST /api/admin/users/:id/resend-verification and /send-password-reset: `{message}`. */
export const AdminActionBody = Type.Object({ reason: Type.Optional(AdminReason) }, { additionalProperties: false });
export type AdminActionBody = Static<typeof AdminActionBody>;

/**
 * DELETE /api/admin/users/:id (204): the user's own account deletion. The address typed
 * back confirms the target; the operator's own password confirms the operator (a wrong one
 * is 400 `INCORRECT_PASSWORD` and counts against the sign-in failure limit: 429 past it).
 */
export const AdminDeleteUserBody = Type.Object(
  {
    confirmEmail: Type.String({ maxLength: EMAIL_MAX_LENGTH }),
    reason: AdminReason,
    password: Type.String({ maxLength: PASSWORD_MAX_LENGTH }),
  },
  { additionalProperties: false },
);
export type AdminDeleteUserBody = Static<typeof AdminDeleteUserBody>;

const PerPlan = Type.Object({ PRO: Type.Integer(), PREMIUM: Type.Integer() });

export const HealthState = Type.Union([Type.Literal('ok'), Type.Literal('error')]);

/** GET /api/admin/stats: the overview. Money in dollars; storage in bytes. */
export const AdminStatsResponse = Type.Object({
  /** All accounts. */
  users: Type.Integer(),
  /** Active and past-due paid subscriptions (complimentary plans not included). */
  activeSubscriptions: PerPlan,
  /** Monthly recurring revenue now: the monthly price of every paid subscription counted in activeSubscriptions. */
  mrr: Type.Number(),
  /** Sum of every account's storage used. */
  storageUsed: Type.Integer(),
  /** Live files of all accounts. */
  files: Type.Integer(),
  /** Accounts created in the last 7 and 30 days. */
  newUsers: Type.Object({ week: Type.Integer(), month: Type.Integer() }),
  complimentarySubscriptions: PerPlan,
  suspendedUsers: Type.Integer(),
  /** Paid subscriptions whose last payment failed (past_due). */
  pastDue: Type.Integer(),
  /** Last 12 calendar months, oldest first, from the billing records: paid invoices, refunds and their difference. */
  revenueByMonth: Type.Array(Type.Object({ month: Month, invoiced: Type.Number(), refunded: Type.Number(), net: Type.Number() })),
  /** First-month refunds given in the last 30 days: how many, and their sum. */
  refunds: Type.Object({ count: Type.Integer(), amount: Type.Number() }),
  /** All accounts' storage at the end of each day with a snapshot, the last 90 days, oldest first. */
  storageHistory: Type.Array(Type.Object({ day: Day, bytes: Type.Integer() })),
  /** The ten accounts using the most storage. */
  largestAccounts: Type.Array(
    Type.Object({
      id: Id,
      email: Type.String(),
      firstName: Type.String(),
      lastName: Type.String(),
      plan: PlanId,
      storageUsed: Type.Integer(),
    }),
  ),
  health: Type.Object({
    database: HealthState,
    blobStore: HealthState,
    /** E-mails waiting to be sent, and those among them that failed at least once. */
    mailQueue: Type.Object({ pending: Type.Integer(), failing: Type.Integer() }),
    /** Per background job (docs/decisions/0017-job-runner.md). */
    jobs: Type.Array(Type.Object({ name: Type.String(), queued: Type.Integer(), active: Type.Integer(), failed: Type.Integer() })),
  }),
});
export type AdminStatsResponse = Static<typeof AdminStatsResponse>;

export const AuditAction = Type.Union([
  Type.Literal('suspend'),
  Type.Literal('unsuspend'),
  Type.Literal('grant_plan'),
  Type.Literal('end_plan'),
  Type.Literal('resend_verification'),
  Type.Literal('send_password_reset'),
  Type.Literal('delete_account'),
  /** `npm run admin -- grant|revoke <email>`: adminId is null (the command line). */
  Type.Literal('grant_role'),
  Type.Literal('revoke_role'),
]);
export type AuditAction = Static<typeof AuditAction>;

/** What an entry records beside who and when; kept as written, also after the target is deleted. */
export const AuditDetails = Type.Object({
  /** The target's address when the action was taken. */
  targetEmail: Type.String(),
  adminEmail: NullableString(Type.String()),
  reason: Type.Optional(Type.String()),
  plan: Type.Optional(PlanId),
  planEndsAt: Type.Optional(Timestamp),
});
export type AuditDetails = Static<typeof AuditDetails>;

export const AuditEntry = Type.Object({
  id: Id,
  /** The operator's user id; null for the command line. */
  adminId: NullableString(Id),
  action: AuditAction,
  targetId: Id,
  createdAt: Timestamp,
  details: AuditDetails,
});
export type AuditEntry = Static<typeof AuditEntry>;

/** GET /api/admin/audit: newest first, keyset paged; `targetId` narrows it to one user. */
export const AdminAuditQuery = Type.Object({
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
  targetId: Type.Optional(Id),
  limit: Type.Optional(PageSize),
});
export type AdminAuditQuery = Static<typeof AdminAuditQuery>;

export const AdminAuditResponse = Type.Object({
  entries: Type.Array(AuditEntry),
  nextCursor: NullableString(Type.String()),
});
export type AdminAuditResponse = Static<typeof AdminAuditResponse>;
