import { createHash, createHmac } from 'node:crypto';
import type { Clock } from '../../lib/clock.ts';
import { hs256Key, numericDate, signHs256, verifyJwt } from '../../lib/hs256-jwt.ts';

/** How long an unlocked password link stays open to that visitor. */
export const SHARE_ACCESS_LIFETIME_MS = 60 * 60 * 1000;
const ACCESS_AUDIENCE = 'cloudvault-share-access';

/**
 * A link's token is derived from its share id with the server's secret (256 bits), and
 * only its SHA-256 is stored: a copy of the database opens no links, while the owner's
 * list can still show each link's address.
 */
export function createShareTokens(secret: string, clock: Clock) {
  const key = hs256Key(secret);
  return {
    tokenFor(shareId: string): string {
      return createHmac('sha256', secret).update(`share-link:${shareId}`).digest('base64url');
    },

    hash(token: string): string {
      return createHash('sha256').update(token).digest('hex');
    },

    /**
     * A visitor's pass after the right password: bound to the share and to that password, one
     * hour. The owner's new password (PATCH /api/shares/:id) closes the link to passes given for the old one.
     */
    async grantAccess(shareId: string, passwordHash: string): Promise<{ accessToken: string; expiresAt: string }> {
      const expiresAt = new Date(clock.now().getTime() + SHARE_ACCESS_LIFETIME_MS);
      const accessToken = signHs256(
        { sub: shareId, pwd: passwordTag(passwordHash), aud: ACCESS_AUDIENCE, iat: numericDate(clock.now()), exp: numericDate(expiresAt) },
        key,
      );
      return { accessToken, expiresAt: expiresAt.toISOString() };
    },

    /** A pass for this share and its current password; one without a password tag is from before passes had one (an hour at most). */
    async hasAccess(shareId: string, accessToken: string | undefined, passwordHash: string): Promise<boolean> {
      if (!accessToken) return false;
      const payload = verifyJwt(accessToken, key, { now: clock.now(), audience: ACCESS_AUDIENCE });
      return payload?.sub === shareId && (payload.pwd === undefined || payload.pwd === passwordTag(passwordHash));
    },
  };
}

export type ShareTokens = ReturnType<typeof createShareTokens>;

/** Names a password without revealing it (the hash is salted; the tag is a digest of it). */
const passwordTag = (passwordHash: string): string => createHash('sha256').update(passwordHash).digest('base64url').slice(0, 16);
