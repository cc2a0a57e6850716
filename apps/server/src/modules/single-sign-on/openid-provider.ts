import * as openid from 'openid-client';
import type { SingleSignOnConfig } from '../../config.ts';
import type { Clock } from '../../lib/clock.ts';

/** Who the provider says signed in, from the checked ID token (and its userinfo when the token leaves something out). */
export interface ProviderIdentity {
  subject: string;
  email: string | undefined;
  /** Only `email_verified: true` counts: a missing claim is no proof. */
  emailVerified: boolean;
  givenName: string | undefined;
  familyName: string | undefined;
  name: string | undefined;
  groups: string[];
}

/** What one sign-in at the provider is checked against when it comes back (kept in the database meanwhile). */
export interface FlowSecrets {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** Why the provider's answer is not taken; the callback turns it into a message on the sign-in page. */
export class ProviderAnswerRefused extends Error {
  constructor(
    readonly reason: 'invalid' | 'denied' | 'unavailable',
    options: { cause: unknown },
  ) {
    super(`single sign-on refused: ${reason}`, options);
  }
}

/** The operator's OpenID provider, as the single-sign-on service uses it. */
export interface OpenIdProvider {
  /** The issuer identifier links are recorded under. */
  readonly issuer: string;
  /** Fresh random secrets for one sign-in. */
  newFlowSecrets(): FlowSecrets;
  /** The provider's sign-in page; `reauth` makes it ask for the credentials again (prompt=login, max_age=0). */
  authorizationUrl(secrets: FlowSecrets, options: { reauth: boolean }): Promise<URL>;
  /** The identity of a callback; refuses anything that does not check out. */
  identity(callbackUrl: URL, secrets: FlowSecrets, options: { reauth: boolean }): Promise<ProviderIdentity>;
}

/** Discovery is read again after this, or at once after a failure (keys and endpoints can move). */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
const SCOPE = 'openid email profile';

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

/**
 * openid-client over the operator's provider: authorization code flow with PKCE (S256),
 * state and nonce; the library checks the ID token's signature, issuer, audience, expiry
 * and nonce. `clock` is the server's: protocol checks use its time (tests move it).
 */
export function createOpenIdProvider(config: SingleSignOnConfig, options: { publicUrl: string; clock: Clock }): OpenIdProvider {
  const redirectUri = `${options.publicUrl}/api/auth/oidc/callback`;
  let discovered: { at: number; configuration: Promise<openid.Configuration> } | undefined;

  /** The provider's metadata, discovered once per process and hour; a failed discovery is tried again next time. */
  async function configuration(): Promise<openid.Configuration> {
    const now = options.clock.now().getTime();
    if (!discovered || now - discovered.at > DISCOVERY_TTL_MS) {
      const configuration = openid.discovery(new URL(config.issuer), config.clientId, config.clientSecret, undefined, {
        // Plain http only to a provider on this machine (config.ts refuses any other).
        ...(config.allowInsecureRequests ? { execute: [openid.allowInsecureRequests] } : {}),
      });
      discovered = { at: now, configuration };
    }
    const current = discovered;
    try {
      return await current.configuration;
    } catch (error) {
      if (discovered === current) discovered = undefined;
      throw new ProviderAnswerRefused('unavailable', { cause: error });
    }
  }

  let jwksCache: openid.ExportedJWKSCache | undefined;
  /**
   * A configuration for one code exchange whose idea of now is the server's clock (the
   * library takes the offset only when a configuration is made); the provider's keys are
   * carried from one to the next, so they are not fetched for every sign-in.
   */
  async function timedConfiguration(): Promise<openid.Configuration> {
    const discoveredNow = await configuration();
    const timed = new openid.Configuration(discoveredNow.serverMetadata(), config.clientId, {
      client_secret: config.clientSecret,
      [openid.clockSkew]: Math.round((options.clock.now().getTime() - Date.now()) / 1000),
    });
    if (config.allowInsecureRequests) openid.allowInsecureRequests(timed);
    // The ID token's signature is checked against the provider's published keys, not only TLS trusted.
    openid.enableNonRepudiationChecks(timed);
    if (jwksCache) openid.setJwksCache(timed, jwksCache);
    return timed;
  }

  return {
    issuer: config.issuer,

    newFlowSecrets: () => ({ state: openid.randomState(), nonce: openid.randomNonce(), codeVerifier: openid.randomPKCECodeVerifier() }),

    async authorizationUrl(secrets, { reauth }) {
      return openid.buildAuthorizationUrl(await configuration(), {
        redirect_uri: redirectUri,
        scope: SCOPE,
        state: secrets.state,
        nonce: secrets.nonce,
        code_challenge: await openid.calculatePKCECodeChallenge(secrets.codeVerifier),
        code_challenge_method: 'S256',
        ...(reauth ? { prompt: 'login', max_age: '0' } : {}),
      });
    },

    async identity(callbackUrl, secrets, { reauth }) {
      const current = await timedConfiguration();
      let tokens: Awaited<ReturnType<typeof openid.authorizationCodeGrant>>;
      try {
        tokens = await openid.authorizationCodeGrant(current, callbackUrl, {
          pkceCodeVerifier: secrets.codeVerifier,
          expectedState: secrets.state,
          expectedNonce: secrets.nonce,
          idTokenExpected: true,
          // A re-authentication must be a sign-in just now, not the provider's remembered session.
          ...(reauth ? { maxAge: 0 } : {}),
        });
      } catch (error) {
        if (error instanceof openid.AuthorizationResponseError) throw new ProviderAnswerRefused('denied', { cause: error });
        if (error instanceof TypeError) throw new ProviderAnswerRefused('unavailable', { cause: error });
        throw new ProviderAnswerRefused('invalid', { cause: error });
      }
      jwksCache = openid.getJwksCache(current) ?? jwksCache;
      const idToken = tokens.claims();
      if (!idToken) throw new ProviderAnswerRefused('invalid', { cause: new Error('no ID token') });
      let claims: Record<string, unknown> = idToken;
      // Many providers put the address and groups in userinfo only; the ID token's subject must match it.
      if (text(idToken.email) === undefined || (config.adminGroup !== undefined && idToken.groups === undefined)) {
        try {
          claims = { ...(await openid.fetchUserInfo(current, tokens.access_token, idToken.sub)), ...idToken };
        } catch (error) {
          throw new ProviderAnswerRefused('invalid', { cause: error });
        }
      }
      return {
        subject: idToken.sub,
        email: text(claims.email),
        emailVerified: claims.email_verified === true,
        givenName: text(claims.given_name),
        familyName: text(claims.family_name),
        name: text(claims.name),
        groups: Array.isArray(claims.groups) ? claims.groups.filter((group): group is string => typeof group === 'string') : [],
      };
    },
  };
}
