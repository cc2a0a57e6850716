import type {
  AdminAuditQuery,
  AdminAuditResponse,
  AdminDeleteUserBody,
  AdminStatsResponse,
  AdminUser,
  AdminUserDetailResponse,
  AdminUserPatchBody,
  AdminUserSort,
  AdminUsersQuery,
  AdminUsersResponse,
  AuditAction,
  AuditDetails,
} from '@cloudvault/contract/admin';
import type { PlanId } from '@cloudvault/contract/plans';
import { normalizeEmail } from '@cloudvault/contract/validation';
import type { JobStats } from '../../adapters/jobs/job-runner.ts';
import type { AuditEntryRow } from '../../db/admin-audit.ts';
import type { Clock } from '../../lib/clock.ts';
import { deviceName } from '../../lib/device-name.ts';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import type { ServiceLog } from '../../lib/service-log.ts';
import type { AccountTokensService } from '../account-tokens/account-tokens.service.ts';
import { type AdminEmails, isAdmin } from '../accounts/accounts.presenter.ts';
import type { AccountsService, SignedInClient } from '../accounts/accounts.service.ts';
import { isComplimentary } from '../billing/billing.presenter.ts';
import type { BillingService } from '../billing/billing.service.ts';
import type { PlanCatalogue } from '../plans/plans.catalogue.ts';
import { decodeCursor, encodeCursor, isRecord } from './admin-cursors.ts';
import { presentAdminUser, presentAuditEntry } from './admin.presenter.ts';
import type { AdminRepository, UserPageKey } from './admin.repository.ts';
import { auditRow, type Operator, type SignedInOperator } from './audit-rows.ts';

const DAY = 24 * 60 * 60 * 1000;
const PAGE = 50;
const LARGEST = 10;
const STORAGE_HISTORY_DAYS = 90;
const REVENUE_MONTHS = 12;

export interface AdminServiceDeps {
  admin: AdminRepository;
  accounts: Pick<AccountsService, 'findUserById' | 'setSuspended' | 'isAdmin' | 'liveSessions' | 'confirmPassword'>;
  billing: Pick<BillingService, 'current' | 'grantComplimentary' | 'endComplimentary' | 'complimentaryPlan'>;
  accountTokens: Pick<AccountTokensService, 'resendVerification' | 'sendPasswordReset'>;
  /** The user's own account deletion (account-data), the audit entry committed with the rows' deletion. */
  deleteAccount(userId: string, audit: AuditEntryRow): Promise<void>;
  /** The overview's health: each check throws when its part does not answer. */
  health: {
    database(): Promise<void>;
    blobStore(): Promise<void>;
    mailQueue(): Promise<{ pending: number; failing: number }>;
    jobs(): Promise<JobStats[]>;
  };
  plans: PlanCatalogue;
  admins: AdminEmails;
  clock: Clock;
  log: ServiceLog;
}

const isUserPosition =
  (sort: AdminUserSort) =>
  (value: unknown): value is UserPageKey & { sort: AdminUserSort } =>
    isRecord(value) &&
    value.sort === sort &&
    typeof value.id === 'string' &&
    (sort === 'storage' ? typeof value.value === 'number' : typeof value.value === 'string');

const isAuditPosition = (value: unknown): value is { createdAt: string; id: string } =>
  isRecord(value) && typeof value.createdAt === 'string' && typeof value.id === 'string';

/** The last `count` calendar months (YYYY-MM), oldest first, ending with the month of `now`. */
function lastMonths(now: Date, count: number): string[] {
  return Array.from({ length: count }, (_, index) => {
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (count - 1 - index), 1));
    return month.toISOString().slice(0, 7);
  });
}

const dollars = (cents: number) => Math.round(cents) / 100;

/**
 * The operator console (docs/decisions/0029-operator-console.md): every account with its
 * plan, sizes and counts (never a file's name or contents), the actions support needs, and
 * an append-only audit log of each of them with who, when, what and why.
 */
export function createAdminService(deps: AdminServiceDeps) {
  const { admin, accounts, billing, plans, admins, clock } = deps;
  const now = () => clock.now().toISOString();

  async function requireUser(userId: string) {
    const user = await admin.findListedUser(userId);
    if (!user) throw notFound('User not found', 'USER_NOT_FOUND');
    return user;
  }

  /**
   * The account an action is about: operators act on users only, so an operator's account
   * (ADMIN_EMAILS or the role, the acting operator's own included) is refused whatever the action.
   */
  async function requireActionTarget(userId: string) {
    const user = await requireUser(userId);
    if (isAdmin(user, admins)) throw new AppError(403, 'OPERATOR_ACCOUNT', "Operators act on users only: this account is an operator's.");
    return user;
  }

  async function presentOne(userId: string): Promise<AdminUser> {
    return presentAdminUser(await requireUser(userId), plans, admins);
  }

  /** The entry that commits with the action it records (db/admin-audit.ts). */
  function entry(
    operator: Operator,
    action: AuditAction,
    target: { id: string; email: string },
    extra: Omit<AuditDetails, 'targetEmail' | 'adminEmail'> = {},
  ) {
    return auditRow(operator, action, target, now(), extra);
  }

  function requireReason(reason: string | undefined): string {
    const trimmed = reason?.trim() ?? '';
    if (!trimmed) throw badRequest('Give a reason: it is kept in the audit log.', 'REASON_REQUIRED');
    return trimmed;
  }

  /** The end date of a complimentary plan: a real time in the future, as ISO. */
  function planEnd(planEndsAt: string | undefined): string {
    if (planEndsAt === undefined) throw badRequest('A complimentary plan needs an end date (planEndsAt).', 'PLAN_END_REQUIRED');
    const time = Date.parse(planEndsAt);
    if (Number.isNaN(time)) throw badRequest('planEndsAt must be a date and time.', 'INVALID_PLAN_END');
    if (time <= clock.now().getTime()) throw badRequest('The end date of a complimentary plan must be in the future.', 'PLAN_END_IN_PAST');
    return new Date(time).toISOString();
  }

  /** Each part asked once; a store that fails is reported as such, not as a 500 of the overview. */
  async function health(): Promise<AdminStatsResponse['health']> {
    const state = (check: () => Promise<void>, part: string) =>
      check().then(
        () => 'ok' as const,
        (error: unknown) => {
          deps.log.error({ err: error, part }, 'operator console health check failed');
          return 'error' as const;
        },
      );
    const [database, blobStore, mailQueue, jobs] = await Promise.all([
      state(deps.health.database, 'database'),
      state(deps.health.blobStore, 'blob store'),
      deps.health.mailQueue(),
      deps.health.jobs(),
    ]);
    return { database, blobStore, mailQueue, jobs: jobs.map(({ name, queued, active, failed }) => ({ name, queued, active, failed })) };
  }

  return {
    /** Whether the signed-in user may use the console. */
    isOperator: (userId: string) => accounts.isAdmin(userId),

    /** The signed-in operator as the audit log names them. */
    async operator(userId: string): Promise<SignedInOperator> {
      return { id: userId, email: (await accounts.findUserById(userId))?.email ?? null };
    },

    async listUsers(query: AdminUsersQuery): Promise<AdminUsersResponse> {
      const sort = query.sort ?? 'created';
      const limit = query.limit === undefined ? PAGE : Number(query.limit);
      const search = query.search?.trim().toLowerCase() || undefined;
      const after = query.cursor === undefined ? null : decodeCursor(query.cursor, isUserPosition(sort));
      const rows = await admin.listUsers({ search, plan: query.plan, status: query.status, sort, after, limit: limit + 1 });
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      const column = sort === 'storage' ? 'storage_used' : sort === 'lastSignIn' ? 'last_sign_in_at' : 'created_at';
      return {
        users: page.map((row) => presentAdminUser(row, plans, admins)),
        nextCursor:
          rows.length > limit && last
            ? encodeCursor({ sort, value: sort === 'storage' ? Number(last[column]) : last[column], id: last.id })
            : null,
      };
    },

    async userDetail(userId: string): Promise<AdminUserDetailResponse> {
      const user = await presentOne(userId);
      const [current, complimentary, usage, sessions] = await Promise.all([
        billing.current(userId),
        billing.complimentaryPlan(userId),
        admin.usage(userId, LARGEST),
        accounts.liveSessions(userId),
      ]);
      return {
        user,
        subscription: current.subscription,
        complimentaryPlan: complimentary
          ? {
              planId: complimentary.plan_id as PlanId,
              startsAt: complimentary.current_period_start,
              endsAt: complimentary.current_period_end,
              reason: complimentary.grant_reason ?? '',
              grantedBy: complimentary.granted_by ?? null,
            }
          : null,
        billingHistory: current.billingHistory,
        history: current.history,
        usage: {
          filesCount: current.filesCount,
          foldersCount: current.foldersCount,
          trashedCount: usage.trashed,
          versionsCount: usage.versions,
          sharesCount: current.sharedCount,
          largestFileSizes: usage.largestFileSizes,
        },
        devices: sessions.map((session) => ({
          id: session.id,
          name: deviceName(session.user_agent),
          createdAt: session.created_at,
          expiresAt: session.expires_at,
        })),
      };
    },

    /**
     * Suspends or restores the account, and grants (PRO, PREMIUM) or ends (FREE) a
     * complimentary plan; a reason is required. Everything is checked before anything
     * changes, the plan (which may be refused) before the suspension.
     */
    async updateUser(operator: Operator, userId: string, body: AdminUserPatchBody): Promise<AdminUser> {
      if (body.suspended === undefined && body.plan === undefined)
        throw badRequest('Nothing to change: give suspended or plan.', 'NOTHING_TO_CHANGE');
      const reason = requireReason(body.reason);
      const target = await requireActionTarget(userId);
      const endsAt = body.plan !== undefined && body.plan !== 'FREE' ? planEnd(body.planEndsAt) : undefined;

      // Each change commits with its own audit entry, in the transaction of the module that makes it.
      if (body.plan === 'FREE') {
        if (!(await billing.endComplimentary(userId, entry(operator, 'end_plan', target, { reason })))) {
          throw conflict('This account has no complimentary plan to end.', 'NO_COMPLIMENTARY_PLAN');
        }
      } else if (body.plan !== undefined && endsAt !== undefined) {
        await billing.grantComplimentary(
          { userId, planId: body.plan, endsAt, reason, grantedBy: operator.id },
          entry(operator, 'grant_plan', target, { reason, plan: body.plan, planEndsAt: endsAt }),
        );
      }
      if (body.suspended !== undefined && body.suspended !== (target.suspended_at !== null && target.suspended_at !== undefined)) {
        await accounts.setSuspended(userId, body.suspended, entry(operator, body.suspended ? 'suspend' : 'unsuspend', target, { reason }));
      }
      return presentOne(userId);
    },

    /** The verification mail again (409 once verified; the user's own 5-an-hour limit applies). */
    /**
     * The verification mail again (409 once verified; the user's own 5-an-hour limit applies).
     * A mail cannot be taken back, so its entry is written first: no mail leaves unaudited.
     */
    async resendVerification(operator: Operator, userId: string, reason: string | undefined): Promise<void> {
      const target = await requireActionTarget(userId);
      if (target.email_verified_at !== null) throw conflict('This address is verified already.', 'ALREADY_VERIFIED');
      await admin.insertAudit(entry(operator, 'resend_verification', target, reason?.trim() ? { reason: reason.trim() } : {}));
      await deps.accountTokens.resendVerification(userId);
    },

    /** The forgot-password mail, sent to the account's own address; audited first, as above. */
    async sendPasswordReset(operator: Operator, userId: string, reason: string | undefined): Promise<void> {
      const target = await requireActionTarget(userId);
      await admin.insertAudit(entry(operator, 'send_password_reset', target, reason?.trim() ? { reason: reason.trim() } : {}));
      await deps.accountTokens.sendPasswordReset(userId);
    },

    /**
     * The user's own account deletion: the operator types the address back and confirms with
     * their own password (a wrong one counts against the sign-in failure limit), so a stolen
     * operator session alone cannot delete accounts.
     */
    async deleteUser(operator: SignedInOperator, userId: string, body: AdminDeleteUserBody, client: SignedInClient): Promise<void> {
      const reason = requireReason(body.reason);
      const target = await requireActionTarget(userId);
      if (normalizeEmail(body.confirmEmail) !== normalizeEmail(target.email)) {
        throw badRequest("Type the account's e-mail address exactly to confirm its deletion.", 'CONFIRMATION_MISMATCH');
      }
      await accounts.confirmPassword(operator.id, body.password, client);
      await deps.deleteAccount(userId, entry(operator, 'delete_account', target, { reason }));
    },

    async stats(): Promise<AdminStatsResponse> {
      const at = clock.now();
      const ago = (days: number) => new Date(at.getTime() - days * DAY).toISOString();
      const months = lastMonths(at, REVENUE_MONTHS);
      const [counts, files, granting, revenue, refunds, storage, largest, parts] = await Promise.all([
        admin.userCounts(ago(7), ago(30)),
        admin.liveFiles(),
        admin.grantingSubscriptions(),
        admin.revenueByMonth(`${months[0]}-01`),
        admin.refundsSince(ago(30)),
        admin.storageByDay(ago(STORAGE_HISTORY_DAYS).slice(0, 10)),
        admin.largestAccounts(LARGEST),
        health(),
      ]);
      const paid = { PRO: 0, PREMIUM: 0 };
      const complimentary = { PRO: 0, PREMIUM: 0 };
      let mrrCents = 0;
      let pastDue = 0;
      for (const group of granting) {
        if (group.plan_id !== 'PRO' && group.plan_id !== 'PREMIUM') continue;
        if (isComplimentary(group.provider)) {
          complimentary[group.plan_id] += group.count;
          continue;
        }
        paid[group.plan_id] += group.count;
        mrrCents += Math.round(plans.get(group.plan_id).price * 100) * group.count;
        if (group.status === 'past_due') pastDue += group.count;
      }
      const byMonth = new Map(revenue.map((row) => [row.month, row]));
      return {
        users: counts.total,
        activeSubscriptions: paid,
        mrr: dollars(mrrCents),
        storageUsed: counts.storage,
        files,
        newUsers: { week: counts.week, month: counts.month },
        complimentarySubscriptions: complimentary,
        suspendedUsers: counts.suspended,
        pastDue,
        revenueByMonth: months.map((month) => {
          const row = byMonth.get(month);
          const invoiced = row?.invoiced ?? 0;
          const refunded = row?.refunded ?? 0;
          return { month, invoiced: dollars(invoiced), refunded: dollars(refunded), net: dollars(invoiced - refunded) };
        }),
        refunds: { count: refunds.count, amount: dollars(refunds.cents) },
        storageHistory: storage,
        largestAccounts: largest.map((row) => ({
          id: row.id,
          email: row.email,
          firstName: row.first_name,
          lastName: row.last_name,
          plan: plans.get(row.plan_id).id as PlanId,
          storageUsed: Number(row.storage_used),
        })),
        health: parts,
      };
    },

    async audit(query: AdminAuditQuery): Promise<AdminAuditResponse> {
      const limit = query.limit === undefined ? PAGE : Number(query.limit);
      const after = query.cursor === undefined ? null : decodeCursor(query.cursor, isAuditPosition);
      const rows = await admin.listAudit({ targetId: query.targetId, after, limit: limit + 1 });
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        entries: page.map(presentAuditEntry),
        nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null,
      };
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;

/** 403 for a signed-in user who is not an operator. */
export const notAnOperator = () => new AppError(403, 'FORBIDDEN', 'This is for operators only.');
