import type { User } from '@cloudvault/contract/accounts';
import type { AccountOverviewResponse, ChangePasswordBody, UpdateProfileBody } from '@cloudvault/contract/profile';
import { isValidPassword, normalizeName, PASSWORD_MIN_LENGTH } from '@cloudvault/contract/validation';
import type { Clock } from '../../lib/clock.ts';
import { deviceName } from '../../lib/device-name.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import { type AdminEmails, presentUser } from '../accounts/accounts.presenter.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { PlanCatalogue } from '../plans/plans.catalogue.ts';

/** The Profile page: names, password, and the account's real figures and recent activity. */
export function createProfileService(deps: {
  accounts: Pick<
    AccountsService,
    'findUserById' | 'updateName' | 'updatePasswordHash' | 'revokeOtherSessions' | 'recentSessions' | 'assertReauthenticated'
  >;
  passwords: { hash(password: string): Promise<string>; verify(hash: string, password: string): Promise<boolean> };
  plans: PlanCatalogue;
  admins: AdminEmails;
  clock: Clock;
  activity: Pick<ActivityService, 'recent'>;
  usageCounts(userId: string): Promise<{ files: number; folders: number }>;
  shareCounts(userId: string): Promise<{ shared: number }>;
  /** The app passwords the user holds, which a password change leaves working (decision 0037). */
  appPasswordCount(userId: string): Promise<number>;
  /** After a password change: the activity log and the security alert (settings decide whether and how). */
  passwordChanged(user: { id: string; email: string }): Promise<void>;
}) {
  const { accounts, clock } = deps;

  async function requireUser(userId: string) {
    const user = await accounts.findUserById(userId);
    if (!user) throw notFound('Account not found');
    return user;
  }

  /** The Profile page's figures: live files and folders, and the shares the user made. */
  async function countsOf(userId: string): Promise<{ files: number; folders: number; shares: number }> {
    const [usage, shareCounts] = await Promise.all([deps.usageCounts(userId), deps.shareCounts(userId)]);
    return { files: usage.files, folders: usage.folders, shares: shareCounts.shared };
  }

  return {
    async updateProfile(userId: string, input: UpdateProfileBody): Promise<User> {
      const firstName = normalizeName(input.firstName);
      const lastName = normalizeName(input.lastName);
      if (!firstName || !lastName) throw badRequest('First name and last name are required', 'NAME_REQUIRED');
      await accounts.updateName(userId, firstName, lastName, clock.now().toISOString());
      return presentUser(await requireUser(userId), deps.plans, deps.admins);
    },

    /**
     * docs/api.md#account: 400 for a wrong current password; every other session is signed
     * out. App passwords keep working, so the answer counts them for the user to review.
     */
    async changePassword(userId: string, sessionId: string, input: ChangePasswordBody): Promise<{ appPasswordsRemaining: number }> {
      const user = await requireUser(userId);
      // An account made through single sign-on has no current password: its first one is set
      // after signing in at the provider again (docs/decisions/0064-single-sign-on.md).
      if (user.password_set === 0) await accounts.assertReauthenticated(userId, sessionId);
      else {
        if (!input.currentPassword) throw badRequest('Current password is required', 'CURRENT_PASSWORD_REQUIRED');
        if (!(await deps.passwords.verify(user.password_hash, input.currentPassword)))
          throw badRequest('Current password is incorrect', 'WRONG_PASSWORD');
      }
      if (!isValidPassword(input.newPassword))
        throw badRequest(`Password must be at least ${PASSWORD_MIN_LENGTH} characters long`, 'WEAK_PASSWORD');
      const now = clock.now().toISOString();
      await accounts.updatePasswordHash(userId, await deps.passwords.hash(input.newPassword), now);
      await accounts.revokeOtherSessions(userId, sessionId, now);
      await deps.passwordChanged(user);
      return { appPasswordsRemaining: await deps.appPasswordCount(userId) };
    },

    async overview(userId: string): Promise<AccountOverviewResponse> {
      const [user, sessions, counts, activity] = await Promise.all([
        requireUser(userId),
        accounts.recentSessions(userId, 1),
        countsOf(userId),
        deps.activity.recent(userId),
      ]);
      const last = sessions[0];
      return {
        createdAt: user.created_at,
        lastSignIn: last ? { at: last.created_at, device: deviceName(last.user_agent) } : null,
        counts,
        activity,
      };
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
