import { createHash, randomBytes } from 'node:crypto';
import type { AuthResponse } from '@cloudvault/contract/accounts';
import type { LinkResponse, SignInMethods, SingleSignOnRefusal } from '@cloudvault/contract/single-sign-on';
import { isValidEmail, normalizeEmail } from '@cloudvault/contract/validation';
import type { Clock } from '../../lib/clock.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { AccountsService, ClientInfo } from '../accounts/accounts.service.ts';
import { type OpenIdProvider, type ProviderIdentity, ProviderAnswerRefused } from './openid-provider.ts';
import type { SingleSignOnRepository } from './single-sign-on.repository.ts';

/** A sign-in at the provider may take this long, from the button to the callback. */
export const FLOW_LIFETIME_MS = 5 * 60 * 1000;
/** The web app fetches its session with the callback's code at once: a minute is plenty. */
const HANDOFF_LIFETIME_MS = 60 * 1000;
const DEFAULT_NEXT = '/dashboard';

/** A refused sign-in or re-authentication: the browser goes back to `next` (or the sign-in page) with the reason. */
export class SingleSignOnRefused extends Error {
  constructor(
    readonly reason: SingleSignOnRefusal,
    /** Where a re-authentication came from; undefined for a sign-in (the sign-in page shows it). */
    readonly next: string | undefined,
    options?: { cause: unknown },
  ) {
    super(`single sign-on refused: ${reason}`, options);
  }
}

/**
 * A path of this site to come back to, or the dashboard: never another origin
 * (`//host`, `/\host`), never the API.
 */
export function sameOriginPath(raw: string | undefined): string {
  if (!raw || raw.length > 512 || !/^\/(?![/\\])[\x21-\x7e]*$/.test(raw) || raw.startsWith('/api/')) return DEFAULT_NEXT;
  return raw;
}

const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');

export interface SingleSignOnServiceDeps {
  /** Undefined when the operator configured no provider: the routes then answer 404. */
  provider: OpenIdProvider | undefined;
  links: SingleSignOnRepository;
  accounts: Pick<AccountsService, 'findUserByEmail' | 'registerFromProvider' | 'signInVerified' | 'assertActive'>;
  /** A hash no password matches, for an account whose password nobody may know any more. */
  unusablePasswordHash(): Promise<string>;
  /** The button's label (OIDC_BUTTON_LABEL). */
  label: string;
  /** OIDC_ADMIN_GROUP: members are operators. */
  adminGroup: string | undefined;
  passwordSignIn: SignInMethods['passwordSignIn'];
  clock: Clock;
}

/** Single sign-on with the operator's OpenID provider (docs/decisions/0064-single-sign-on.md). */
export function createSingleSignOnService(deps: SingleSignOnServiceDeps) {
  const { links, accounts, clock } = deps;
  const nowIso = () => clock.now().toISOString();

  function configured(): OpenIdProvider {
    if (!deps.provider) throw notFound('Single sign-on is not set up on this server.', 'SINGLE_SIGN_ON_OFF');
    return deps.provider;
  }

  /**
   * Finds or makes the account of a provider identity (the linking rules of decision 0064):
   * a known (issuer, subject) is its account; else an account with the same address, only
   * when the provider verified it; else a new account without a password.
   */
  async function accountOf(provider: OpenIdProvider, identity: ProviderIdentity): Promise<string> {
    const linked = await links.findLink(provider.issuer, identity.subject);
    if (linked) return linked.user_id;
    const email = normalizeEmail(identity.email ?? '');
    if (!isValidEmail(email)) throw new SingleSignOnRefused('no-email', undefined);
    const now = nowIso();
    const link = { issuer: provider.issuer, subject: identity.subject, email, created_at: now, last_used_at: now };
    const existing = await accounts.findUserByEmail(email);
    if (existing) {
      // No takeover through an address the provider has not proven.
      if (!identity.emailVerified) throw new SingleSignOnRefused('unverified-email', undefined);
      const row = { ...link, user_id: existing.id };
      const inserted =
        existing.email_verified_at === null
          ? await links.insertLinkClaimingAccount(row, await deps.unusablePasswordHash())
          : await links.insertLink(row);
      if (inserted) return existing.id;
    } else {
      const user = await accounts.registerFromProvider({
        email,
        emailVerified: identity.emailVerified,
        ...namesOf(identity, email),
      });
      if (user && (await links.insertLink({ ...link, user_id: user.id }))) return user.id;
    }
    // Another sign-in of the same identity (or address) won the race: take what it made.
    const winner = await links.findLink(provider.issuer, identity.subject);
    if (!winner) throw new SingleSignOnRefused('expired', undefined);
    return winner.user_id;
  }

  return {
    /** What the sign-in pages offer. */
    methods(): SignInMethods {
      return {
        passwordSignIn: deps.passwordSignIn,
        singleSignOn: deps.provider ? { label: deps.label } : null,
        passkeys: true,
      };
    },

    /**
     * Begins a sign-in (or, with `reauthSessionId`, a re-authentication of that session): its
     * secrets go to the database, so the callback may land on any node; the returned id goes
     * in the browser's cookie, binding the flow to the browser that began it.
     */
    async begin(input: { next: string | undefined; reauthSessionId?: string }): Promise<{ flowId: string; location: string }> {
      const provider = configured();
      const secrets = provider.newFlowSecrets();
      const reauth = input.reauthSessionId !== undefined;
      const location = await provider.authorizationUrl(secrets, { reauth }).catch((error: unknown) => {
        if (error instanceof ProviderAnswerRefused)
          throw new AppError(503, 'SINGLE_SIGN_ON_UNAVAILABLE', 'The sign-in provider cannot be reached. Try again later.');
        throw error;
      });
      const flowId = newId();
      await links.deleteExpiredFlows(nowIso());
      await links.insertFlow({
        id: flowId,
        state: secrets.state,
        nonce: secrets.nonce,
        code_verifier: secrets.codeVerifier,
        next_path: sameOriginPath(input.next),
        reauth_session_id: input.reauthSessionId ?? null,
        expires_at: new Date(clock.now().getTime() + FLOW_LIFETIME_MS).toISOString(),
      });
      return { flowId, location: location.href };
    },

    /**
     * The provider's callback: the flow is used up whatever happens next, the answer is
     * checked, then the account is found or made and a one-time code handed back for the
     * web app (a sign-in), or the session marked re-authenticated.
     */
    async finish(flowId: string | undefined, callbackUrl: URL): Promise<{ next: string; handoffCode?: string }> {
      const provider = configured();
      const flow = flowId ? await links.takeFlow(flowId, nowIso()) : undefined;
      if (!flow) throw new SingleSignOnRefused('expired', undefined);
      const reauthSession = flow.reauth_session_id;
      const refusedTo = reauthSession ? flow.next_path : undefined;
      let identity: ProviderIdentity;
      try {
        identity = await provider.identity(
          callbackUrl,
          { state: flow.state, nonce: flow.nonce, codeVerifier: flow.code_verifier },
          { reauth: reauthSession !== null },
        );
      } catch (error) {
        if (error instanceof ProviderAnswerRefused) throw new SingleSignOnRefused(error.reason, refusedTo, { cause: error.cause });
        throw error;
      }

      if (reauthSession) {
        const userId = await links.sessionUser(reauthSession, nowIso());
        const link = await links.findLink(provider.issuer, identity.subject);
        if (!userId || link?.user_id !== userId) throw new SingleSignOnRefused('other-account', refusedTo);
        await links.setReauthenticated(reauthSession, nowIso());
        return { next: flow.next_path };
      }

      const userId = await accountOf(provider, identity);
      try {
        await accounts.assertActive(userId);
      } catch (error) {
        if (error instanceof AppError && error.code === 'ACCOUNT_SUSPENDED') throw new SingleSignOnRefused('suspended', undefined);
        throw error;
      }
      const operator = deps.adminGroup !== undefined && identity.groups.includes(deps.adminGroup);
      await links.touchLink(
        { issuer: provider.issuer, subject: identity.subject, user_id: userId },
        identity.email && normalizeEmail(identity.email),
        operator,
        nowIso(),
      );
      const handoffCode = randomBytes(32).toString('base64url');
      // Only this browser may use it: a code given to someone else's browser (a link an attacker
      // sends, to sign the victim in to the attacker's account) is refused.
      const expiresAt = new Date(clock.now().getTime() + HANDOFF_LIFETIME_MS).toISOString();
      await links.insertHandoff(hashCode(handoffCode), userId, hashCode(flow.id), expiresAt);
      return { next: flow.next_path, handoffCode };
    },

    /** The session of a sign-in at the provider, for the code its callback gave, in the browser that began it; once. */
    async exchange(code: string, flowId: string | undefined, client: ClientInfo): Promise<AuthResponse> {
      const userId = await links.takeHandoff(hashCode(code), hashCode(flowId ?? ''), nowIso());
      if (!userId) throw badRequest('This sign-in link has expired. Sign in again.', 'SIGN_IN_EXPIRED');
      return accounts.signInVerified(userId, client);
    },

    /** The account's link, for Settings > Security. */
    async link(userId: string): Promise<LinkResponse> {
      const link = deps.provider ? await links.findLinkOfUser(userId, deps.provider.issuer) : undefined;
      return { link: link ? { label: deps.label, email: link.email, linkedAt: link.created_at } : null };
    },

    /** Whether the account can sign in through the provider (one of its ways in). */
    async linked(userId: string): Promise<boolean> {
      return deps.provider !== undefined && (await links.findLinkOfUser(userId, deps.provider.issuer)) !== undefined;
    },
  };
}

/** A new account's names: the provider's given and family names, else its full name split once, else the address. */
function namesOf(identity: ProviderIdentity, email: string): { firstName: string; lastName: string } {
  if (identity.givenName || identity.familyName) return { firstName: identity.givenName ?? '', lastName: identity.familyName ?? '' };
  const [first, ...rest] = (identity.name ?? email.split('@')[0] ?? '').split(/\s+/);
  return { firstName: first ?? '', lastName: rest.join(' ') };
}

export type SingleSignOnService = ReturnType<typeof createSingleSignOnService>;
