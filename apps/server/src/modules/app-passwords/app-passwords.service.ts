import { createHash } from 'node:crypto';
import type {
  AppPassword,
  AppPasswordsResponse,
  CreateAppPasswordBody,
  CreatedAppPasswordResponse,
} from '@cloudvault/contract/app-passwords';
import { APP_PASSWORD_NAME_MAX_LENGTH, APP_PASSWORDS_PER_USER } from '@cloudvault/contract/app-passwords';
import { isValidEmail, normalizeEmail } from '@cloudvault/contract/validation';
import type { Language } from '@cloudvault/contract/settings';
import type { AuthResponse } from '@cloudvault/contract/accounts';
import type { MailMessage } from '../../adapters/mail/mailer.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import type { FailureLimiter } from '../../lib/failure-limiter.ts';
import { newId } from '../../lib/ids.ts';
import type { ServiceLog } from '../../lib/service-log.ts';
import type { AccountsService, SignedInClient } from '../accounts/accounts.service.ts';
import { appPasswordCreatedMail } from './app-password-mail.ts';
import { hashAppPasswordSecret, looksLikeAppPassword, newAppPasswordSecret } from './app-password-secrets.ts';
import type { AppPasswordRow, AppPasswordsRepository } from './app-passwords.repository.ts';

/** last_used_at is written at most this often per app password. */
const LAST_USED_PRECISION_MS = 60_000;

/** Basic auth's refusal; the header makes WebDAV clients ask the user for a password. */
const wrongCredentials = () =>
  new AppError(
    401,
    'INVALID_CREDENTIALS',
    'Invalid e-mail or password. With two-factor sign-in on, use an app password from Settings.',
    {},
    { 'WWW-Authenticate': 'Basic realm="CloudVault WebDAV", charset="UTF-8"' },
  );

/** The account row, as the accounts service hands it out. */
type UserRow = NonNullable<Awaited<ReturnType<AccountsService['findUserById']>>>;

const present = (row: Pick<AppPasswordRow, 'id' | 'name' | 'created_at' | 'last_used_at'>): AppPassword => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});

export interface AppPasswordsServiceDeps {
  appPasswords: AppPasswordsRepository;
  accounts: Pick<
    AccountsService,
    'findUserByEmail' | 'findUserById' | 'countPasswordAttempt' | 'confirmPassword' | 'assertActive' | 'openDeviceSession'
  >;
  /** The account password's slow hash: verify (remembered for a while, lib/verified-passwords.ts) and hash (for the decoy). */
  passwords: { hash(password: string): Promise<string>; verify(hash: string, password: string): Promise<boolean> };
  /** A TOTP or unused recovery code of a user with two-factor on (a recovery code is used up). */
  verifySecondFactor(user: UserRow, code: string): Promise<boolean>;
  /** The account's interface language: its mails are written in it. */
  languageOf(userId: string): Promise<Language>;
  sendMail(message: MailMessage): Promise<void>;
  /** One WebDAV sign-in with the account password recorded per account and client in a window (a day). */
  webDavSignIns: FailureLimiter;
  /** The activity entry of such a sign-in, and the alert of a new device. */
  signedInOverWebDav(user: UserRow, client: { userAgent: string | undefined }): Promise<void>;
  clock: Clock;
  log: ServiceLog;
  publicUrl: string;
}

/** App passwords (docs/api.md#app-passwords-and-webdav): the list, creation and revocation, and the Basic-auth check of WebDAV. */
export function createAppPasswordsService(deps: AppPasswordsServiceDeps) {
  const { appPasswords, accounts, passwords, clock } = deps;
  // Verified against when no account password may match, so every refusal costs the same time.
  let decoyHash: Promise<string> | undefined;
  const decoy = () => (decoyHash ??= passwords.hash(newId()));

  /** The id of the user's app password this secret is, if any; marks it used. */
  async function matchAppPassword(userId: string, password: string): Promise<string | undefined> {
    if (!looksLikeAppPassword(password)) return undefined;
    const match = await appPasswords.findForUser(userId, hashAppPasswordSecret(password));
    if (!match) return undefined;
    const now = clock.now();
    const staleBefore = new Date(now.getTime() - LAST_USED_PRECISION_MS).toISOString();
    if (match.last_used_at === null || match.last_used_at < staleBefore) await appPasswords.touch(match.id, now.toISOString(), staleBefore);
    return match.id;
  }

  /**
   * What signing in takes, asked again (decision 0037): the account password, then a code
   * while two-factor is on. Both count against the sign-in limits like the sign-in form.
   */
  async function reauthenticate(
    user: UserRow,
    input: { password: string; totpCode?: string | undefined },
    client: SignedInClient,
  ): Promise<void> {
    await accounts.confirmPassword(user.id, input.password, client);
    if (user.totp_secret === null) return;
    const code = input.totpCode?.trim();
    if (!code) throw badRequest('Enter the code from your authenticator app.', 'TWO_FACTOR_REQUIRED');
    const attempt = await accounts.countPasswordAttempt(user.email, client.ip);
    if (!(await deps.verifySecondFactor(user, code))) {
      throw badRequest('That code is not right. Enter the current code, or one of your recovery codes.', 'INVALID_TWO_FACTOR_CODE');
    }
    await attempt.succeeded();
  }

  /** The owner learns of every new way into the account; a mail that cannot be queued is logged, the app password stands. */
  async function mailOwner(user: UserRow, row: AppPasswordRow): Promise<void> {
    try {
      const mail = appPasswordCreatedMail(
        { to: user.email, name: row.name, at: row.created_at, publicUrl: deps.publicUrl },
        await deps.languageOf(user.id),
      );
      await deps.sendMail(mail);
    } catch (error) {
      deps.log.error({ err: error, userId: user.id }, 'app password mail not queued');
    }
  }

  /** Counts a WebDAV sign-in with the account password as a sign-in, once a day per client; never fails the request. */
  async function recordWebDavSignIn(user: UserRow, userAgent: string | undefined): Promise<void> {
    // Hashed: the User-Agent is the client's to choose, and a key stays short.
    const client = createHash('sha256')
      .update(userAgent ?? '')
      .digest('base64url');
    try {
      if ((await deps.webDavSignIns.attempt(`${user.id}:${client}`)) > 0) return;
      await deps.signedInOverWebDav(user, { userAgent });
    } catch (error) {
      deps.log.error({ err: error, userId: user.id }, 'WebDAV sign-in not recorded');
    }
  }

  return {
    async list(userId: string): Promise<AppPasswordsResponse> {
      return { appPasswords: (await appPasswords.listByUser(userId)).map(present) };
    },

    async create(userId: string, input: CreateAppPasswordBody, client: SignedInClient): Promise<CreatedAppPasswordResponse> {
      const name = input.name.trim();
      if (!name) throw badRequest('Give the app password a name, such as the device it is for.', 'APP_PASSWORD_NAME_REQUIRED');
      if (name.length > APP_PASSWORD_NAME_MAX_LENGTH) {
        throw badRequest(
          `An app password's name can be at most ${APP_PASSWORD_NAME_MAX_LENGTH} characters long.`,
          'APP_PASSWORD_NAME_TOO_LONG',
        );
      }
      if ((await appPasswords.countByUser(userId)) >= APP_PASSWORDS_PER_USER) {
        throw conflict(
          `You have ${APP_PASSWORDS_PER_USER} app passwords, the most an account can hold. Revoke one you no longer use first.`,
          'APP_PASSWORD_LIMIT',
        );
      }
      const user = await accounts.findUserById(userId);
      if (!user) throw notFound('Account not found');
      await reauthenticate(user, input, client);
      const password = newAppPasswordSecret();
      const row: AppPasswordRow = {
        id: newId(),
        user_id: userId,
        name,
        secret_hash: hashAppPasswordSecret(password),
        created_at: clock.now().toISOString(),
        last_used_at: null,
      };
      await appPasswords.insert(row);
      await mailOwner(user, row);
      return { id: row.id, name: row.name, password, createdAt: row.created_at };
    },

    /** How many app passwords the user holds: what a password change leaves signed in. */
    count: (userId: string): Promise<number> => appPasswords.countByUser(userId),

    /**
     * Deleted, so the next request with it fails on every node, and so do the sync sessions
     * opened with it; another user's id is a 404.
     */
    async revoke(userId: string, id: string): Promise<void> {
      if (!(await appPasswords.delete(userId, id, clock.now().toISOString()))) throw notFound('App password not found');
    },

    /**
     * POST /api/auth/device-session: a sync client trades the account's e-mail and one of its
     * app passwords for a bearer session tied to that app password. Every try counts against
     * the sign-in limits (429 once reached) and a right one is taken back, as a sign-in is;
     * anything but a right app password is the same 401 (the account password never opens one).
     */
    async openDeviceSession(
      input: { email: string; password: string; device: string },
      client: { ip: string; userAgent: string | undefined },
    ): Promise<AuthResponse> {
      const attempt = await accounts.countPasswordAttempt(input.email, client.ip);
      const normalized = normalizeEmail(input.email);
      const user = attempt.plausibleEmail ? await accounts.findUserByEmail(normalized) : undefined;
      const appPasswordId = user ? await matchAppPassword(user.id, input.password) : undefined;
      if (!user || !appPasswordId) throw new AppError(401, 'INVALID_CREDENTIALS', 'Invalid e-mail or app password.');
      await attempt.succeeded();
      await accounts.assertActive(user.id);
      // The device's name goes with the session's client, so the Profile page's device list names it.
      const userAgent = `${client.userAgent ?? 'cloudvault'} (${input.device.trim()})`;
      return accounts.openDeviceSession(user.id, appPasswordId, { ip: client.ip, userAgent });
    },

    /**
     * HTTP Basic credentials of a WebDAV request: the account's e-mail with one of its app
     * passwords, or with the account password while two-factor sign-in is off. Anything
     * else is a 401 counted against the sign-in limits (429 once they are reached). A right
     * app password does not touch the limits: it cannot be guessed, and a client syncing
     * many files at once must not trip them (decision 0028).
     */
    async authenticateBasic(credentials: {
      email: string;
      password: string;
      clientAddress: string;
      userAgent?: string | undefined;
    }): Promise<{ userId: string }> {
      const { email, password, clientAddress } = credentials;
      const normalized = normalizeEmail(email);
      const user = isValidEmail(normalized) ? await accounts.findUserByEmail(normalized) : undefined;
      // A suspended account (the operator console) is refused only once the credentials are
      // right, so the answer tells a guesser nothing.
      if (user && (await matchAppPassword(user.id, password)) !== undefined) {
        await accounts.assertActive(user.id);
        return { userId: user.id };
      }

      const attempt = await accounts.countPasswordAttempt(email, clientAddress);
      // Not an address any account can have: counted against the client's address alone, no hash.
      if (!attempt.plausibleEmail) throw wrongCredentials();
      const accountPasswordAllowed = user !== undefined && user.totp_secret === null;
      const valid = await passwords.verify(accountPasswordAllowed ? user.password_hash : await decoy(), password);
      if (!accountPasswordAllowed || !valid) throw wrongCredentials();
      await attempt.succeeded();
      await accounts.assertActive(user.id);
      await recordWebDavSignIn(user, credentials.userAgent);
      return { userId: user.id };
    },
  };
}

export type AppPasswordsService = ReturnType<typeof createAppPasswordsService>;
