import type { AuthResponse, LoginBody, RegisterBody, User } from '@cloudvault/contract/accounts';
import type { PasskeyAssertion } from '@cloudvault/contract/passkeys';
import {
  isValidEmail,
  isValidPassword,
  NAME_MAX_LENGTH,
  normalizeEmail,
  normalizeName,
  PASSWORD_MIN_LENGTH,
} from '@cloudvault/contract/validation';
import type { AuditEntryRow } from '../../db/admin-audit.ts';
import type { AuthContext } from '../../lib/auth.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import { countAttempts, type FailureLimiter } from '../../lib/failure-limiter.ts';
import { newId } from '../../lib/ids.ts';
import type { PlanCatalogue, PlanEntry } from '../plans/plans.catalogue.ts';
import type { AccountsRepository, UserRow } from './accounts.repository.ts';
import { type AdminEmails, isAdmin, isConfiguredAdmin, presentUser } from './accounts.presenter.ts';
import type { SessionTokens } from './session-tokens.ts';

export const SESSION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
const WRONG_CREDENTIALS = 'Invalid email or password';
const SUSPENDED = 'This account is suspended. Contact support to restore it.';
/**
 * How long a sign-in at the provider stands in for the password an account made through
 * single sign-on does not have (docs/decisions/0064-single-sign-on.md).
 */
export const REAUTHENTICATION_MS = 5 * 60 * 1000;

/** PASSWORD_SIGN_IN=admins-only: everyone but the operators signs in through the provider. */
function passwordSignInOff(): AppError {
  return new AppError(403, 'PASSWORD_SIGN_IN_OFF', 'This server signs you in with single sign-on: use its button instead of a password.');
}

/** docs/decisions/0029-operator-console.md: a suspended account's sign-in (any step) answers this. */
function accountSuspended(): AppError {
  return new AppError(403, 'ACCOUNT_SUSPENDED', SUSPENDED);
}

/** A signed-in request confirming an action: where it comes from, and its session (a re-authentication is the session's). */
export interface SignedInClient {
  ip: string;
  sessionId: string;
}

/** Where a request comes from, kept with the session it opens. */
export interface ClientInfo {
  ip: string;
  userAgent: string | undefined;
}

export interface AccountsServiceDeps {
  accounts: Pick<
    AccountsRepository,
    | 'findUserByEmail'
    | 'findUserById'
    | 'insertUser'
    | 'insertSession'
    | 'findLiveSession'
    | 'revokeSession'
    | 'hasSessionFrom'
    | 'updateName'
    | 'updatePasswordHash'
    | 'revokeOtherSessions'
    | 'recentSessions'
    | 'setLastSignIn'
    | 'setSuspended'
    | 'liveSessions'
    | 'reauthenticatedAt'
    | 'signInMethodCounts'
  >;
  tokens: SessionTokens;
  passwords: { hash(password: string): Promise<string>; verify(hash: string, password: string): Promise<boolean> };
  plans: PlanCatalogue;
  admins: AdminEmails;
  clock: Clock;
  /**
   * Failed sign-ins per e-mail and client address (10 per 15 minutes), so guesses from one
   * place never lock the owner out from another, and per address (100 per 15 minutes).
   */
  loginFailuresByEmailAndIp: FailureLimiter;
  loginFailuresByIp: FailureLimiter;
  /** A TOTP or unused recovery code of a user with two-factor on (a recovery code is used up). */
  verifySecondFactor(user: UserRow, code: string): Promise<boolean>;
  /** One of the user's passkeys answering a sign-in ceremony, in place of a code (docs/api.md#passkeys). */
  verifyPasskey(userId: string, assertion: PasskeyAssertion): Promise<boolean>;
  /** After a sign-in: the activity log, and a security alert when the device is new. */
  signedIn(user: UserRow, client: ClientInfo, newDevice: boolean): Promise<void>;
  /** After registration: the mail with the link that verifies the address. */
  registered(user: UserRow): Promise<void>;
  /** PASSWORD_SIGN_IN: `admins-only` keeps password sign-in and registration for the operators. */
  passwordSignIn: 'everyone' | 'admins-only';
}

export function createAccountsService(deps: AccountsServiceDeps) {
  const { accounts, tokens, passwords, plans, admins, clock } = deps;
  // Verified against when the e-mail is unknown, so both failures cost the same time.
  let decoyHash: Promise<string> | undefined;
  const decoy = () => (decoyHash ??= passwords.hash(newId()));

  async function planIdOf(userId: string): Promise<string> {
    return (await accounts.findUserById(userId))?.plan_id ?? 'FREE';
  }

  /** A new session's token; `appPasswordId` ties a sync client's session to the app password it was opened with. */
  async function openSession(userId: string, client: ClientInfo, appPasswordId: string | null = null): Promise<string> {
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
    const sessionId = newId();
    await accounts.insertSession({
      id: sessionId,
      user_id: userId,
      created_at: now.toISOString(),
      expires_at: expiresAt.toISOString(),
      revoked_at: null,
      user_agent: client.userAgent?.slice(0, 512) ?? null,
      ip: client.ip.slice(0, 64),
      app_password_id: appPasswordId,
    });
    await accounts.setLastSignIn(userId, now.toISOString());
    return tokens.sign({ userId, sessionId, expiresAt });
  }

  /**
   * The one rule of suspension for every way in (password sign-in, its two-factor step,
   * WebDAV app passwords): 403 while an operator has the account suspended, 401 when it is gone.
   */
  async function assertActive(userId: string): Promise<void> {
    const user = await accounts.findUserById(userId);
    if (!user) throw new AppError(401, 'UNAUTHORIZED', 'Account not found');
    if (user.suspended_at) throw accountSuspended();
  }

  /**
   * Counts a password attempt against the sign-in limits (per address, then per e-mail and
   * address), or answers 429 when they are reached. Counted before the slow password check,
   * so parallel guesses cannot all slip through while the first ones are being verified.
   * Only a plausible e-mail gets a window of its own; anything else counts against the
   * address alone, so what an anonymous client sends never becomes a key per request.
   */
  async function countAttempt(email: string, ip: string): Promise<{ emailKey: string | undefined; ipKey: string }> {
    const ipKey = `ip:${ip}`;
    const emailKey = isValidEmail(email) ? `email:${email}|ip:${ip}` : undefined;
    await countAttempts([deps.loginFailuresByIp, ipKey], ...(emailKey ? [[deps.loginFailuresByEmailAndIp, emailKey] as const] : []));
    return { emailKey, ipKey };
  }

  /** Takes a counted attempt back: the password proved right. */
  async function forgiveAttempt({ emailKey, ipKey }: { emailKey: string | undefined; ipKey: string }): Promise<void> {
    await Promise.all([emailKey ? deps.loginFailuresByEmailAndIp.forgive(emailKey) : undefined, deps.loginFailuresByIp.forgive(ipKey)]);
  }

  /**
   * An account without a password (made through single sign-on) confirms who it is by
   * signing in at the provider again: this session's re-authentication counts for
   * REAUTHENTICATION_MS, else 403 REAUTHENTICATION_REQUIRED.
   */
  async function assertReauthenticated(userId: string, sessionId: string): Promise<void> {
    const at = await accounts.reauthenticatedAt(sessionId, userId);
    if (at === null || clock.now().getTime() - Date.parse(at) > REAUTHENTICATION_MS)
      throw new AppError(403, 'REAUTHENTICATION_REQUIRED', 'Confirm it is you: sign in with single sign-on again, then try once more.');
  }

  /** Opens the session of a proven sign-in, and tells the user when it comes from a new device. */
  async function signedIn(user: UserRow, client: ClientInfo): Promise<AuthResponse> {
    const newDevice = !(await accounts.hasSessionFrom(user.id, client.userAgent?.slice(0, 512) ?? null));
    const token = await openSession(user.id, client);
    await deps.signedIn(user, client, newDevice);
    return { token, user: presentUser(user, plans, admins) };
  }

  return {
    /** Account rows for the modules around accounts (profile, account e-mails), which apply their own rules to them. */
    findUserById: accounts.findUserById,
    findUserByEmail: accounts.findUserByEmail,
    /** The Profile page's changes and figures. */
    updateName: accounts.updateName,
    updatePasswordHash: accounts.updatePasswordHash,
    revokeOtherSessions: accounts.revokeOtherSessions,
    recentSessions: accounts.recentSessions,

    async register(input: RegisterBody, client: ClientInfo): Promise<AuthResponse> {
      const firstName = normalizeName(input.firstName);
      const lastName = normalizeName(input.lastName);
      const email = normalizeEmail(input.email);
      if (!firstName) throw badRequest('First name is required');
      if (!lastName) throw badRequest('Last name is required');
      if (!isValidEmail(email)) throw badRequest('Please enter a valid e-mail address');
      if (deps.passwordSignIn === 'admins-only' && !admins.has(email)) throw passwordSignInOff();
      if (!isValidPassword(input.password)) {
        throw badRequest(`Password must be at least ${PASSWORD_MIN_LENGTH} characters long`);
      }
      const now = clock.now().toISOString();
      const user = {
        id: newId(),
        email,
        first_name: firstName,
        last_name: lastName,
        password_hash: await passwords.hash(input.password),
        plan_id: 'FREE',
        storage_used: 0,
        two_factor_enabled: 0,
        totp_secret: null,
        totp_pending_secret: null,
        // Unproven until the link mailed to it is opened (private shares wait for that).
        email_verified_at: null,
        totp_last_step: null,
        created_at: now,
        updated_at: now,
        last_sign_in_at: now,
      };
      if (!(await accounts.insertUser(user))) {
        throw conflict('An account with this e-mail already exists', 'EMAIL_TAKEN');
      }
      const token = await openSession(user.id, client);
      await deps.registered(user);
      return { token, user: presentUser(user, plans, admins) };
    },

    async login(input: LoginBody, client: ClientInfo): Promise<AuthResponse> {
      const email = normalizeEmail(input.email);
      const { emailKey, ipKey } = await countAttempt(email, client.ip);
      // Not an address any account can have: refused without a lookup or a hash.
      if (!emailKey) throw new AppError(401, 'INVALID_CREDENTIALS', WRONG_CREDENTIALS);

      const user = await accounts.findUserByEmail(email);
      const valid = await passwords.verify(user?.password_hash ?? (await decoy()), input.password);
      // An account made through single sign-on has a random hash: no password matches it.
      if (!user || !valid) throw new AppError(401, 'INVALID_CREDENTIALS', WRONG_CREDENTIALS);
      // The operators keep their password, to reach the server while the provider is down.
      if (deps.passwordSignIn === 'admins-only' && !isConfiguredAdmin(user, admins)) throw passwordSignInOff();
      // Before the code is asked for: the two-factor step of a suspended account answers 403 too.
      await assertActive(user.id);
      if (user.totp_secret !== null) {
        // docs/api.md#accounts: a code is asked for only after the right password; a wrong code counts as a failure.
        if (input.passkey) {
          if (!(await deps.verifyPasskey(user.id, input.passkey)))
            throw new AppError(401, 'PASSKEY_NOT_RECOGNISED', 'That passkey could not be verified. Try again, or enter a code instead.', {
              twoFactorRequired: true,
            });
        } else if (!input.totpCode) {
          const passkeyAvailable = (await accounts.signInMethodCounts(user.id))?.passkeys ? true : false;
          throw new AppError(401, 'TWO_FACTOR_REQUIRED', 'Enter the code from your authenticator app.', {
            twoFactorRequired: true,
            passkeyAvailable,
          });
        } else if (!(await deps.verifySecondFactor(user, input.totpCode))) {
          throw new AppError(
            401,
            'INVALID_TWO_FACTOR_CODE',
            'That code is not right. Enter the current code, or one of your recovery codes.',
            { twoFactorRequired: true },
          );
        }
      }
      await Promise.all([deps.loginFailuresByEmailAndIp.reset(emailKey), deps.loginFailuresByIp.forgive(ipKey)]);
      return signedIn(user, client);
    },

    /**
     * A sign-in whose account was proven without its password (a passkey): the same steps
     * after it as a password sign-in, suspension's 403 and the new-device alert included.
     */
    async signInVerified(userId: string, client: ClientInfo): Promise<AuthResponse> {
      await assertActive(userId);
      const user = await accounts.findUserById(userId);
      if (!user) throw new AppError(401, 'UNAUTHORIZED', 'Account not found');
      return signedIn(user, client);
    },

    /** What the account can sign in with; the last of them cannot be removed (docs/decisions/0063-passkeys.md). */
    async signInMethods(userId: string): Promise<{ password: boolean; singleSignOn: boolean; passkeys: number }> {
      const counts = await accounts.signInMethodCounts(userId);
      if (!counts) throw notFound('Account not found');
      return { password: counts.passwordSet, singleSignOn: counts.links > 0, passkeys: counts.passkeys };
    },

    /**
     * A sync client's session (POST /api/auth/device-session), opened once the app password
     * has been checked by the app-passwords service: it ends when that app password is revoked.
     */
    async openDeviceSession(userId: string, appPasswordId: string, client: ClientInfo): Promise<AuthResponse> {
      const user = await accounts.findUserById(userId);
      if (!user) throw new AppError(401, 'INVALID_CREDENTIALS', WRONG_CREDENTIALS);
      const token = await openSession(user.id, client, appPasswordId);
      return { token, user: presentUser(user, plans, admins) };
    },

    /**
     * An account's first sign-in through the provider (docs/decisions/0064-single-sign-on.md):
     * no password until one is set (a random hash nobody knows), the address verified only
     * when the provider says so (else the usual link is mailed). Undefined when the address
     * was taken meanwhile.
     */
    async registerFromProvider(input: {
      email: string;
      emailVerified: boolean;
      firstName: string;
      lastName: string;
    }): Promise<UserRow | undefined> {
      const now = clock.now().toISOString();
      const user = {
        id: newId(),
        email: input.email,
        first_name: input.firstName.trim().slice(0, NAME_MAX_LENGTH),
        last_name: input.lastName.trim().slice(0, NAME_MAX_LENGTH),
        password_hash: await passwords.hash(`${newId()}${newId()}`),
        password_set: 0,
        plan_id: 'FREE',
        storage_used: 0,
        two_factor_enabled: 0,
        totp_secret: null,
        totp_pending_secret: null,
        email_verified_at: input.emailVerified ? now : null,
        totp_last_step: null,
        created_at: now,
        updated_at: now,
        last_sign_in_at: now,
      };
      if (!(await accounts.insertUser(user))) return undefined;
      if (!input.emailVerified) await deps.registered(user);
      return user;
    },

    /**
     * Re-authentication (docs/api.md#email-verification) before deleting the account or turning two-factor off: the
     * account's password, else 400. Wrong ones count as failed sign-ins from that address, so
     * a stolen session guesses no faster than the sign-in form. An account without a password
     * (made through single sign-on) signs in at the provider again instead: this session's
     * re-authentication counts for REAUTHENTICATION_MS, else 403 REAUTHENTICATION_REQUIRED.
     */
    async confirmPassword(userId: string, password: string, client: SignedInClient): Promise<void> {
      const user = await accounts.findUserById(userId);
      if (!user) throw notFound('Account not found');
      if (user.password_set === 0) return assertReauthenticated(userId, client.sessionId);
      if (!password) throw badRequest('Enter your password to confirm.', 'PASSWORD_REQUIRED');
      const attempt = await countAttempt(user.email, client.ip);
      if (!(await passwords.verify(user.password_hash, password))) throw badRequest('That password is not right.', 'INCORRECT_PASSWORD');
      await forgiveAttempt(attempt);
    },

    /**
     * Counts a password check made outside the sign-in form (WebDAV's Basic auth) against
     * the same sign-in limits, or answers 429 when they are reached; `succeeded` takes the
     * attempt back once the password proved right, as a sign-in does.
     */
    async countPasswordAttempt(email: string, ip: string): Promise<{ plausibleEmail: boolean; succeeded(): Promise<void> }> {
      const attempt = await countAttempt(normalizeEmail(email), ip);
      return { plausibleEmail: attempt.emailKey !== undefined, succeeded: () => forgiveAttempt(attempt) };
    },

    assertActive,
    assertReauthenticated,

    /** False while suspended or gone: what the user shared stops answering. */
    async isActive(userId: string): Promise<boolean> {
      const user = await accounts.findUserById(userId);
      return user !== undefined && !user.suspended_at;
    },

    /** Suspends or restores an account (the operator console, whose audit entry commits with it); false when there is no such user. */
    async setSuspended(userId: string, suspended: boolean, audit?: AuditEntryRow): Promise<boolean> {
      const now = clock.now().toISOString();
      return accounts.setSuspended(userId, suspended ? now : null, now, audit);
    },

    /** Whether the user is an operator (ADMIN_EMAILS or the database role). */
    async isAdmin(userId: string): Promise<boolean> {
      const user = await accounts.findUserById(userId);
      return user !== undefined && isAdmin(user, admins);
    },

    /** The devices signed in now: sessions neither revoked nor expired. */
    liveSessions(userId: string) {
      return accounts.liveSessions(userId, clock.now().toISOString());
    },

    /** The caller named by a bearer token, or null when it is forged, expired, revoked or its user suspended. */
    async authenticate(token: string): Promise<AuthContext | null> {
      const claims = await tokens.verify(token);
      if (!claims) return null;
      const session = await accounts.findLiveSession(claims.sessionId, claims.userId, clock.now().toISOString());
      return session ? { userId: session.user_id, sessionId: session.id } : null;
    },

    async profile(userId: string): Promise<User> {
      const user = await accounts.findUserById(userId);
      if (!user) throw notFound('Account not found');
      return presentUser(user, plans, admins);
    },

    async logout(sessionId: string): Promise<void> {
      await accounts.revokeSession(sessionId, clock.now().toISOString());
    },

    /** The user's plan id, read fresh each time so a plan change applies at once; Free for an unknown user. */
    planIdOf,

    /** The catalogue entry of the user's plan (what it allows), read fresh each time. */
    async planOf(userId: string): Promise<PlanEntry> {
      return plans.get(await planIdOf(userId));
    },

    /** Whether two-factor sign-in is really on (the settings object only mirrors it). */
    async twoFactorEnabled(userId: string): Promise<boolean> {
      return Boolean((await accounts.findUserById(userId))?.two_factor_enabled);
    },

    /** Who the payment provider's customer is: the address and the full name. */
    async customerDetails(userId: string): Promise<{ email: string; name: string }> {
      const user = await accounts.findUserById(userId);
      if (!user) throw new Error(`user ${userId} does not exist`);
      return { email: user.email, name: `${user.first_name} ${user.last_name}`.trim() };
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
