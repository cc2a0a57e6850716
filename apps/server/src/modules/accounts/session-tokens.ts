import { SignJWT, jwtVerify } from 'jose';
import type { Clock } from '../../lib/clock.ts';

/**
 * The bearer token: a signed JWT naming a session row. The signature rejects forgeries
 * without a query; the session row lets sign-out and password changes revoke it at once.
 */
export interface SessionTokens {
  sign(claims: { userId: string; sessionId: string; expiresAt: Date }): Promise<string>;
  verify(token: string): Promise<{ userId: string; sessionId: string } | null>;
}

const ISSUER = 'cloudvault';

export function createSessionTokens(secret: string, clock: Clock): SessionTokens {
  // Imported once: given the raw bytes, jose imports a WebCrypto key on every call, which
  // was about a third of its cost per signed-in request (bench/README.md, "Listing 100 files").
  const key = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  return {
    sign: async ({ userId, sessionId, expiresAt }) =>
      new SignJWT({ sid: sessionId })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setIssuedAt(clock.now())
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(await key),
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, await key, {
          issuer: ISSUER,
          algorithms: ['HS256'],
          currentDate: clock.now(),
        });
        if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
        return { userId: payload.sub, sessionId: payload.sid };
      } catch {
        return null;
      }
    },
  };
}
