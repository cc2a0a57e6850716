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
  const key = new TextEncoder().encode(secret);
  return {
    sign: ({ userId, sessionId, expiresAt }) =>
      new SignJWT({ sid: sessionId })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setIssuedAt(clock.now())
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(key),
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, {
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
