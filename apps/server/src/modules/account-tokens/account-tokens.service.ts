import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ForgotPasswordBody, ResetPasswordBody, User } from '@cloudvault/contract/accounts';
import type { Language } from '@cloudvault/contract/settings';
import { isValidEmail, isValidPassword, normalizeEmail, PASSWORD_MIN_LENGTH } from '@cloudvault/contract/validation';
import type { MailMessage } from '../../adapters/mail/mailer.ts';
import type { Clock } from '../../lib/clock.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { countAttempts, type FailureLimiter } from '../../lib/failure-limiter.ts';
import type { ServiceLog } from '../../lib/service-log.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import type { AccountTokenPurpose, UsersTable } from '../../db/schema.ts';
import { passwordResetMail, verificationMail } from './account-mail.ts';
import type { AccountTokensRepository } from './account-tokens.repository.ts';
import { hashMailedToken, newMailedToken } from './account-tokens.ts';

const HOUR = 60 * 60 * 1000;
/** docs/api.md#email-verification: a verification link works for 48 hours, a reset link for 1 hour. */
export const VERIFICATION_LIFETIME_MS = 48 * HOUR;
export const RESET_LIFETIME_MS = HOUR;

export const RESEND_MESSAGE = 'We sent you a new verification link. Check your inbox.';
export const FORGOT_MESSAGE = 'If an account exists for this e-mail, we sent it a link to reset the password. Check your inbox.';
export const RESET_MESSAGE = 'Your password was changed. Sign in with your new password.';

export interface AccountTokensServiceDeps {
  tokens: AccountTokensRepository;
  users: Pick<AccountsService, 'findUserById' | 'findUserByEmail'>;
  /** The account's interface language: its mails are written in it. */
  languageOf(userId: string): Promise<Language>;
  sendMail(message: MailMessage): Promise<void>;
  /** The user as clients see them (with emailVerified and role). */
  presentUser(row: UsersTable): User;
  passwords: { hash(password: string): Promise<string> };
  /** Verification mails asked for again, per user (5 an hour). */
  verificationResends: FailureLimiter;
  /** Reset mails asked for, per e-mail and per client address. */
  resetRequestsByEmail: FailureLimiter;
  resetRequestsByIp: FailureLimiter;
  /** After a reset: the activity log and the security alert (settings decide whether and how). */
  passwordReset(user: UsersTable): Promise<void>;
  /** Forgot-password answers no sooner than this, whether or not the e-mail has an account. */
  forgotPasswordFloorMs: number;
  clock: Clock;
  log: ServiceLog;
  publicUrl: string;
}

/**
 * The links mailed to an account's own address: verification (which private shares need)
 * and password reset. Tokens are random, single use, short-lived and stored only hashed.
 */
export function createAccountTokensService(deps: AccountTokensServiceDeps) {
  const { tokens, users, clock } = deps;

  /** Stores the hash of a fresh token and answers the token itself, for the mail only. */
  async function issue(user: UsersTable, purpose: AccountTokenPurpose, lifetimeMs: number): Promise<string> {
    const token = newMailedToken();
    const now = clock.now();
    await tokens.deleteSpent(user.id, purpose, now.toISOString());
    await tokens.insert({
      token_hash: hashMailedToken(token),
      user_id: user.id,
      purpose,
      email: user.email,
      expires_at: new Date(now.getTime() + lifetimeMs).toISOString(),
      used_at: null,
      created_at: now.toISOString(),
    });
    return token;
  }

  async function mailVerification(user: UsersTable): Promise<void> {
    const token = await issue(user, 'verify_email', VERIFICATION_LIFETIME_MS);
    const mail = verificationMail(
      { to: user.email, firstName: user.first_name, token, publicUrl: deps.publicUrl },
      await deps.languageOf(user.id),
    );
    await deps.sendMail(mail);
  }

  async function mailReset(user: UsersTable): Promise<void> {
    const token = await issue(user, 'reset_password', RESET_LIFETIME_MS);
    await deps.sendMail(
      passwordResetMail({ to: user.email, firstName: user.first_name, token, publicUrl: deps.publicUrl }, await deps.languageOf(user.id)),
    );
  }

  return {
    /** After registration. Never fails it: the account exists, and the user can ask again. */
    async sendVerification(user: UsersTable): Promise<void> {
      try {
        await mailVerification(user);
      } catch (error) {
        deps.log.error({ err: error, userId: user.id }, 'verification mail not queued');
      }
    },

    /** docs/api.md#email-verification: 429 beyond 5 an hour. An address verified already gets nothing (and the same answer). */
    async resendVerification(userId: string): Promise<void> {
      await countAttempts([deps.verificationResends, userId]);
      const user = await users.findUserById(userId);
      if (!user) throw notFound('Account not found');
      if (user.email_verified_at !== null) return;
      await mailVerification(user);
    },

    /** An operator mails the reset link of forgot-password to the account (support), without its timing floor: 404 for no such user. */
    async sendPasswordReset(userId: string): Promise<void> {
      const user = await users.findUserById(userId);
      if (!user) throw notFound('Account not found');
      await mailReset(user);
    },

    /** docs/api.md#email-verification: 400 for an unknown, used or expired token. */
    async verifyEmail(token: string): Promise<User> {
      const invalid = () =>
        badRequest('This verification link is invalid, used or expired. Ask for a new one.', 'VERIFICATION_LINK_INVALID');
      const now = clock.now().toISOString();
      const row = await tokens.findUsable(hashMailedToken(token), 'verify_email', now);
      if (!row || !(await tokens.verifyEmail(row, now))) throw invalid();
      const user = await users.findUserById(row.user_id);
      if (!user) throw invalid();
      return deps.presentUser(user);
    },

    /**
     * docs/api.md#email-verification: the same answer, no sooner than a fixed floor, whether or not the e-mail has an
     * account; the mail is queued, never sent while the request waits, so no path is slower.
     */
    async forgotPassword(input: ForgotPasswordBody, ip: string): Promise<void> {
      const email = normalizeEmail(input.email);
      if (!isValidEmail(email)) throw badRequest('Please enter a valid e-mail address', 'INVALID_EMAIL');
      const emailKey = `email:${email}`;
      const ipKey = `ip:${ip}`;
      // The address first: once it is refused, the e-mails it goes on trying get no window each.
      await countAttempts([deps.resetRequestsByIp, ipKey], [deps.resetRequestsByEmail, emailKey]);

      // Elapsed time on the machine's monotonic clock, not the injected one: the floor is
      // about how long the answer really takes, which a test clock standing still does not show.
      const started = performance.now();
      try {
        const user = await users.findUserByEmail(email);
        if (user) await mailReset(user);
      } catch (error) {
        // Failing here would tell that the account exists: logged, answered as usual.
        deps.log.error({ err: error }, 'password reset mail not queued');
      }
      const left = deps.forgotPasswordFloorMs - (performance.now() - started);
      if (left > 0) await sleep(left);
    },

    /**
     * docs/api.md#email-verification: every session revoked, two-factor untouched; every app
     * password too unless `revokeAppPasswords` is false (decision 0037); 400 for a bad token or a short password.
     */
    async resetPassword(input: ResetPasswordBody): Promise<void> {
      const invalid = () => badRequest('This reset link is invalid, used or expired. Ask for a new one.', 'RESET_LINK_INVALID');
      const row = await tokens.findUsable(hashMailedToken(input.token), 'reset_password', clock.now().toISOString());
      if (!row) throw invalid();
      if (!isValidPassword(input.password))
        throw badRequest(`Password must be at least ${PASSWORD_MIN_LENGTH} characters long`, 'WEAK_PASSWORD');
      const passwordHash = await deps.passwords.hash(input.password);
      // The clock is read again: hashing takes time, and the token may have run out meanwhile.
      if (
        !(await tokens.resetPassword(row, passwordHash, clock.now().toISOString(), {
          revokeAppPasswords: input.revokeAppPasswords ?? true,
        }))
      )
        throw invalid();
      const user = await users.findUserById(row.user_id);
      if (user) await deps.passwordReset(user);
    },
  };
}

export type AccountTokensService = ReturnType<typeof createAccountTokensService>;
