import { SignJWT, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { createShareTokens, SHARE_ACCESS_LIFETIME_MS } from './share-tokens.ts';

const SECRET = 'a-test-secret-of-at-least-32-characters';
const joseKey = new TextEncoder().encode(SECRET);
const start = new Date('2026-11-24T10:00:00Z');

describe('share access passes', () => {
  it('open the share they were granted for, until they expire', async () => {
    let now = start;
    const shares = createShareTokens(SECRET, { now: () => now });
    const { accessToken, expiresAt } = await shares.grantAccess('share1', 'hash1');
    expect(expiresAt).toBe(new Date(start.getTime() + SHARE_ACCESS_LIFETIME_MS).toISOString());
    expect(await shares.hasAccess('share1', accessToken, 'hash1')).toBe(true);
    expect(await shares.hasAccess('share2', accessToken, 'hash1')).toBe(false);
    expect(await shares.hasAccess('share1', undefined, 'hash1')).toBe(false);
    expect(await createShareTokens(`${SECRET}-other`, { now: () => now }).hasAccess('share1', accessToken, 'hash1')).toBe(false);
    // A new password closes the link to passes given for the old one.
    expect(await shares.hasAccess('share1', accessToken, 'hash2')).toBe(false);
    now = new Date(start.getTime() + SHARE_ACCESS_LIFETIME_MS);
    expect(await shares.hasAccess('share1', accessToken, 'hash1')).toBe(false);
  });

  it('are passes jose verifies, and passes jose signed (those handed out before) still open', async () => {
    const shares = createShareTokens(SECRET, { now: () => start });
    const { accessToken } = await shares.grantAccess('share1', 'hash1');
    const { payload } = await jwtVerify(accessToken, joseKey, { audience: 'cloudvault-share-access', currentDate: start });
    expect(payload.sub).toBe('share1');

    const expiry = new Date(start.getTime() + SHARE_ACCESS_LIFETIME_MS);
    const jose = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('share1')
      .setAudience('cloudvault-share-access')
      .setIssuedAt(start)
      .setExpirationTime(expiry)
      .sign(joseKey);
    expect(await shares.hasAccess('share1', jose, 'hash1')).toBe(true);
    // A download link's token is no pass.
    const link = await new SignJWT({ kind: 'file', id: 'f1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('share1')
      .setAudience('cloudvault-download')
      .setExpirationTime(expiry)
      .sign(joseKey);
    expect(await shares.hasAccess('share1', link, 'hash1')).toBe(false);
  });
});
