import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { AuthResponse } from '@cloudvault/contract/accounts';
import type { Language } from '@cloudvault/contract/settings';
import {
  type CreatePasskeyBody,
  type Passkey,
  PASSKEY_NAME_MAX_LENGTH,
  PASSKEYS_PER_USER,
  type PasskeyAssertion,
  type PasskeyOptionsResponse,
} from '@cloudvault/contract/passkeys';
import type { MailMessage } from '../../adapters/mail/mailer.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { AccountsService, ClientInfo } from '../accounts/accounts.service.ts';
import { passkeyAddedMail } from './passkey-mail.ts';
import type { ListedPasskey, PasskeyRow, PasskeysRepository } from './passkeys.repository.ts';
import type { RelyingParty } from './relying-party.ts';

/** How long a ceremony's challenge is good for; the browser is told the same. */
export const CEREMONY_MS = 5 * 60 * 1000;
/** EdDSA, ES256, RS256: what authenticators make today, and what the library verifies everywhere. */
const ALGORITHMS = [-8, -7, -257];

const ceremonyExpired = () =>
  badRequest('This passkey request has expired or was already used. Please try again.', 'PASSKEY_CEREMONY_EXPIRED');
/** One answer for every refused assertion, so it tells nothing about which passkeys exist. */
const notRecognised = () =>
  new AppError(401, 'PASSKEY_NOT_RECOGNISED', 'That passkey could not be verified. Try again or sign in another way.');

/** The WebAuthn user handle of an account: its id, which says nothing about the person. */
const userHandleOf = (userId: string) => isoBase64URL.fromUTF8String(userId);

const present = (row: ListedPasskey): Passkey => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  backedUp: row.backed_up === 1,
});

function validName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw badRequest('Give the passkey a name.', 'PASSKEY_NAME_REQUIRED');
  if (trimmed.length > PASSKEY_NAME_MAX_LENGTH)
    throw badRequest(`A passkey's name can be at most ${PASSKEY_NAME_MAX_LENGTH} characters long.`, 'PASSKEY_NAME_TOO_LONG');
  return trimmed;
}

export interface PasskeysServiceDeps {
  passkeys: PasskeysRepository;
  accounts: Pick<AccountsService, 'findUserById' | 'signInVerified' | 'signInMethods' | 'countPasswordAttempt'>;
  relyingParty: RelyingParty;
  /** The account's interface language: the mail of a new passkey is written in it. */
  languageOf(userId: string): Promise<Language>;
  sendMail(message: MailMessage): Promise<void>;
  publicUrl: string;
  clock: Clock;
}

/** Passkeys (docs/api.md#passkeys): adding, listing, renaming and removing them, and signing in with one. */
export function createPasskeysService(deps: PasskeysServiceDeps) {
  const { passkeys, accounts, relyingParty, clock } = deps;

  async function startCeremony(kind: 'registration' | 'authentication', userId: string | null, challenge: string): Promise<string> {
    const now = clock.now();
    const id = newId();
    await passkeys.insertCeremony(
      { id, kind, user_id: userId, challenge, expires_at: new Date(now.getTime() + CEREMONY_MS).toISOString() },
      now.toISOString(),
    );
    return id;
  }

  /** The ceremony's challenge, taken out for good: a second answer to it finds nothing. */
  async function takeChallenge(kind: 'registration' | 'authentication', ceremonyId: string, userId: string | null): Promise<string> {
    const ceremony = await passkeys.takeCeremony(ceremonyId, kind);
    if (!ceremony || ceremony.user_id !== userId || ceremony.expires_at <= clock.now().toISOString()) throw ceremonyExpired();
    return ceremony.challenge;
  }

  /**
   * The passkey that answered the ceremony, once its signature, origin, RP ID and counter
   * are checked and its use recorded; 401 otherwise. `userId` narrows it to one account's
   * passkeys (the second factor); user verification is required when it stands alone.
   */
  async function verifyAssertion({ ceremonyId, credential }: PasskeyAssertion, userId?: string): Promise<PasskeyRow> {
    const challenge = await takeChallenge('authentication', ceremonyId, null);
    const passkey = await passkeys.findByCredentialId(credential.id);
    if (!passkey || (userId !== undefined && passkey.user_id !== userId)) throw notRecognised();
    // A discoverable credential names its account too: it must be the one the id was registered to.
    const userHandle = credential.response.userHandle;
    if (userHandle && userHandle !== userHandleOf(passkey.user_id)) throw notRecognised();
    const counter = Number(passkey.counter);
    let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      verification = await verifyAuthenticationResponse({
        response: credential as AuthenticationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: relyingParty.origin,
        expectedRPID: relyingParty.id,
        credential: {
          id: passkey.credential_id,
          publicKey: isoBase64URL.toBuffer(passkey.public_key),
          counter,
          transports: passkey.transports ? passkey.transports.split(',') : undefined,
        },
        requireUserVerification: userId === undefined,
      });
    } catch {
      // The library throws for every mismatch (origin, RP ID, challenge, signature, a counter gone backwards).
      throw notRecognised();
    }
    if (!verification.verified) throw notRecognised();
    const { newCounter, credentialBackedUp, credentialDeviceType } = verification.authenticationInfo;
    const recorded = await passkeys.recordUse(passkey.id, counter, {
      counter: newCounter,
      backed_up: credentialBackedUp ? 1 : 0,
      device_type: credentialDeviceType,
      last_used_at: clock.now().toISOString(),
    });
    // Another sign-in moved the counter meanwhile: two answers with one counter value.
    if (!recorded) throw notRecognised();
    return passkey;
  }

  return {
    async list(userId: string): Promise<Passkey[]> {
      return (await passkeys.listByUser(userId)).map(present);
    },

    /** Options for navigator.credentials.create(): a discoverable credential with user verification, none the user has already. */
    async registrationOptions(userId: string): Promise<PasskeyOptionsResponse> {
      const user = await accounts.findUserById(userId);
      if (!user) throw notFound('Account not found');
      const existing = await passkeys.credentialsOf(userId);
      const options = await generateRegistrationOptions({
        rpName: relyingParty.name,
        rpID: relyingParty.id,
        userName: user.email,
        userDisplayName: `${user.first_name} ${user.last_name}`.trim(),
        userID: isoBase64URL.toBuffer(userHandleOf(userId)),
        attestationType: 'none',
        excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: row.transports ? row.transports.split(',') : [] })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
        supportedAlgorithmIDs: ALGORITHMS,
        timeout: CEREMONY_MS,
      });
      return { ceremonyId: await startCeremony('registration', userId, options.challenge), options: { ...options } };
    },

    /** Verifies the authenticator's answer and keeps the passkey under the given name. */
    async register(userId: string, body: CreatePasskeyBody): Promise<Passkey> {
      // The name first: a bad one leaves the ceremony for a second try.
      const name = validName(body.name);
      if ((await passkeys.countByUser(userId)) >= PASSKEYS_PER_USER)
        throw conflict(
          `You have ${PASSKEYS_PER_USER} passkeys, the most an account can hold. Remove one you no longer use first.`,
          'PASSKEY_LIMIT',
        );
      const challenge = await takeChallenge('registration', body.ceremonyId, userId);
      let info;
      try {
        const verification = await verifyRegistrationResponse({
          response: body.credential as RegistrationResponseJSON,
          expectedChallenge: challenge,
          expectedOrigin: relyingParty.origin,
          expectedRPID: relyingParty.id,
          requireUserVerification: true,
          supportedAlgorithmIDs: ALGORITHMS,
        });
        info = verification.registrationInfo;
      } catch {
        info = undefined;
      }
      if (!info) throw badRequest('The passkey could not be verified. Please try again.', 'PASSKEY_NOT_VERIFIED');
      const row: PasskeyRow = {
        id: newId(),
        user_id: userId,
        credential_id: info.credential.id,
        public_key: isoBase64URL.fromBuffer(info.credential.publicKey),
        counter: info.credential.counter,
        transports: (body.credential.response.transports ?? []).join(','),
        device_type: info.credentialDeviceType,
        backed_up: info.credentialBackedUp ? 1 : 0,
        name,
        created_at: clock.now().toISOString(),
        last_used_at: null,
      };
      if (!(await passkeys.insert(row))) throw conflict('This passkey is already registered.', 'PASSKEY_EXISTS');
      const user = await accounts.findUserById(userId);
      if (user) {
        const mail = passkeyAddedMail(
          { to: user.email, name, at: row.created_at, publicUrl: deps.publicUrl },
          await deps.languageOf(userId),
        );
        await deps.sendMail(mail);
      }
      return present(row);
    },

    async rename(userId: string, id: string, name: string): Promise<Passkey> {
      const renamed = await passkeys.rename(userId, id, validName(name));
      if (!renamed) throw notFound('Passkey not found');
      return present(renamed);
    },

    /** Refused while it is the account's only way in: no password, no single sign-on, no other passkey. */
    async remove(userId: string, id: string): Promise<void> {
      const methods = await accounts.signInMethods(userId);
      const owned = (await passkeys.listByUser(userId)).some((row) => row.id === id);
      if (!owned) throw notFound('Passkey not found');
      if (!methods.password && !methods.singleSignOn && methods.passkeys <= 1)
        throw conflict(
          'This passkey is the only way left to sign in to your account. Add another passkey or set a password first.',
          'LAST_SIGN_IN_METHOD',
        );
      if (!(await passkeys.delete(userId, id))) throw notFound('Passkey not found');
    },

    /** Options for navigator.credentials.get() with no account named: the browser offers every passkey it has for the site. */
    async authenticationOptions(): Promise<PasskeyOptionsResponse> {
      const options = await generateAuthenticationOptions({ rpID: relyingParty.id, userVerification: 'preferred', timeout: CEREMONY_MS });
      return { ceremonyId: await startCeremony('authentication', null, options.challenge), options: { ...options } };
    },

    /**
     * A sign-in with a passkey alone: possession and user verification are two factors, so no
     * code is asked for. Counted against the address's sign-in limits as a password is.
     */
    async signIn(assertion: PasskeyAssertion, client: ClientInfo): Promise<AuthResponse> {
      // No e-mail: the attempt counts against the address alone.
      const attempt = await accounts.countPasswordAttempt('', client.ip);
      const passkey = await verifyAssertion(assertion);
      await attempt.succeeded();
      return accounts.signInVerified(passkey.user_id, client);
    },

    /** The second factor of a password sign-in: one of this account's passkeys; false for any other answer. */
    async verifySecondFactor(userId: string, assertion: PasskeyAssertion): Promise<boolean> {
      try {
        await verifyAssertion(assertion, userId);
        return true;
      } catch (error) {
        if (error instanceof AppError && error.status < 500) return false;
        throw error;
      }
    },
  };
}

export type PasskeysService = ReturnType<typeof createPasskeysService>;
