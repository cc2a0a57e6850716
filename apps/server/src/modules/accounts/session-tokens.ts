import { setBounded } from '../../lib/bounded-map.ts';
import type { Clock } from '../../lib/clock.ts';
import { claimsHold, hs256Key, type JwtPayload, numericDate, signHs256, verifyHs256 } from '../../lib/hs256-jwt.ts';

/**
 * The bearer token: a signed JWT naming a session row. The signature rejects forgeries
 * without a query; the session row lets sign-out and password changes revoke it at once.
 */
export interface SessionTokens {
  sign(claims: { userId: string; sessionId: string; expiresAt: Date }): Promise<string>;
  verify(token: string): Promise<{ userId: string; sessionId: string } | null>;
}

const ISSUER = 'cloudvault';
/** Signatures remembered as checked: a token or two per signed-in device of this node's users. */
const VERIFIED_TOKENS = 10_000;

export function createSessionTokens(secret: string, clock: Clock): SessionTokens {
  // One key object for both: signing is rare (sign-in), verifying is every signed-in request.
  const key = hs256Key(secret);
  /**
   * Tokens whose signature checked out, with their payload: a memo of a pure function of
   * the token and the secret, so it can never accept what the check would refuse. The
   * HMAC was about 5 % of a small signed-in request's CPU, every request of a client
   * sending the same token (docs/decisions/0034-request-cost.md, addendum). The claims
   * are checked against the clock on every request still; revocation is the session row's
   * business, read on every request. Oldest out first past VERIFIED_TOKENS. Keyed by the
   * token itself, which every request brings into memory anyway.
   */
  const verified = new Map<string, JwtPayload>();
  const checkedPayload = (token: string): JwtPayload | null => {
    const known = verified.get(token);
    if (known) return known;
    const payload = verifyHs256(token, key);
    if (!payload) return null;
    setBounded(verified, token, payload, VERIFIED_TOKENS);
    return payload;
  };
  return {
    sign: async ({ userId, sessionId, expiresAt }) =>
      signHs256({ sid: sessionId, sub: userId, iss: ISSUER, iat: numericDate(clock.now()), exp: numericDate(expiresAt) }, key),
    // Synchronous inside (lib/hs256-jwt.ts); async for the interface's callers.
    async verify(token) {
      const payload = checkedPayload(token);
      // The claims against the clock on every request, even for a remembered signature.
      if (!payload || !claimsHold(payload, { now: clock.now(), issuer: ISSUER })) return null;
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
      return { userId: payload.sub, sessionId: payload.sid };
    },
  };
}
