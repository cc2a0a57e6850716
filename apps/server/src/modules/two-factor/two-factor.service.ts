import { createHash, randomBytes } from 'node:crypto';
import type { RecoveryCodesResponse, TwoFactorSetupResponse } from '@cloudvault/contract/profile';
import type { Clock } from '../../lib/clock.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { matchTotpStep, newTotpSecret, otpauthUrl } from '../../lib/totp.ts';
import type { SignedInClient } from '../accounts/accounts.service.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { TwoFactorRepository } from './two-factor.repository.ts';

const RECOVERY_CODES = 10;

/** Recovery codes are typed by people: lower case, no look-alikes lost, dash in the middle. */
function newRecoveryCode(): string {
  const hex = randomBytes(5).toString('hex');
  return `${hex.slice(0, 5)}-${hex.slice(5)}`;
}

/** Dashes, spaces and case do not matter when a recovery code is typed back. */
const normalizeRecoveryCode = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();
const hashCode = (code: string) => createHash('sha256').update(normalizeRecoveryCode(code)).digest('hex');

/** The two-factor routes of docs/api.md#two-factor: setup (pending), enable with a code, disable with a code; and the sign-in check. */
export function createTwoFactorService(deps: {
  twoFactor: TwoFactorRepository;
  clock: Clock;
  qrCodeDataUrl(text: string): Promise<string>;
  activity: Pick<ActivityService, 'record'>;
  /** The account's password again, or a 400 (or 429 after too many wrong ones). */
  confirmPassword(userId: string, password: string, client: SignedInClient): Promise<void>;
}) {
  const { twoFactor, clock } = deps;
  const now = () => clock.now().toISOString();

  async function secretsOf(userId: string) {
    const secrets = await twoFactor.secrets(userId);
    if (!secrets) throw notFound('Account not found');
    return secrets;
  }

  /** A TOTP code of a step not used before (then used), or an unused recovery code (then used up). */
  async function verify(userId: string, secret: string, code: string): Promise<boolean> {
    const step = matchTotpStep(secret, code, clock.now());
    if (step !== null) return twoFactor.useTotpStep(userId, step);
    return /^[0-9a-f]{10}$/.test(normalizeRecoveryCode(code)) && twoFactor.useRecoveryCode(userId, hashCode(code), now());
  }

  return {
    verify,

    async setup(userId: string): Promise<TwoFactorSetupResponse> {
      const { email, totp_secret } = await secretsOf(userId);
      if (totp_secret) throw badRequest('Two-factor sign-in is already on. Turn it off first to set it up again.', 'TWO_FACTOR_ALREADY_ON');
      const secret = newTotpSecret();
      await twoFactor.setPending(userId, secret);
      const url = otpauthUrl(secret, email);
      return { secret, otpauthUrl: url, qrCodeDataUrl: await deps.qrCodeDataUrl(url) };
    },

    async enable(userId: string, code: string): Promise<RecoveryCodesResponse> {
      const { totp_secret, totp_pending_secret } = await secretsOf(userId);
      if (totp_secret) throw badRequest('Two-factor sign-in is already on.', 'TWO_FACTOR_ALREADY_ON');
      if (!totp_pending_secret) throw badRequest('Set up two-factor sign-in first.', 'TWO_FACTOR_NOT_SET_UP');
      const step = matchTotpStep(totp_pending_secret, code, clock.now());
      // The code that turns it on is used: it cannot sign in or turn it off afterwards.
      if (step === null || !(await twoFactor.useTotpStep(userId, step)))
        throw badRequest('That code is not right. Enter the code your app shows now.', 'INVALID_TWO_FACTOR_CODE');
      const recoveryCodes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
      await twoFactor.enable(userId, totp_pending_secret, recoveryCodes.map(hashCode), now());
      await deps.activity.record(userId, 'two_factor', { state: 'on' });
      return { recoveryCodes };
    },

    /** Needs the password as well as a code: a stolen session alone cannot turn it off. */
    async disable(userId: string, input: { code: string; password: string }, client: SignedInClient): Promise<void> {
      const { code } = input;
      const { totp_secret } = await secretsOf(userId);
      if (!totp_secret) throw badRequest('Two-factor sign-in is not on.', 'TWO_FACTOR_NOT_ON');
      // The password first: a wrong one uses no code up.
      await deps.confirmPassword(userId, input.password, client);
      if (!(await verify(userId, totp_secret, code)))
        throw badRequest('That code is not right. Enter the current code, or one of your recovery codes.', 'INVALID_TWO_FACTOR_CODE');
      await twoFactor.disable(userId, now());
      await deps.activity.record(userId, 'two_factor', { state: 'off' });
    },
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
