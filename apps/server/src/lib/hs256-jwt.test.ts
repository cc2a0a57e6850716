import { SignJWT, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { hs256Key, signHs256, verifyJwt } from './hs256-jwt.ts';

// jose is the reference here, as a second implementation of RFC 7519: what we sign is what
// it signs, and tokens it signed (every token handed out before) still verify.

const SECRET = 'a-test-secret-of-at-least-32-characters';
const joseKey = new TextEncoder().encode(SECRET);
const key = hs256Key(SECRET);
const start = new Date('2026-11-24T12:00:00Z');
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const inAnHour = new Date(start.getTime() + 3600_000);
const atStart = { now: start };

describe('HS256 tokens', () => {
  it('are the bytes jose signs for the same claims, and jose verifies them', async () => {
    const claims = { kind: 'file', id: 'f1', sub: 'u1', aud: 'cloudvault-download', iat: seconds(start), exp: seconds(inAnHour) };
    const ours = signHs256(claims, key);
    const jose = await new SignJWT({ kind: 'file', id: 'f1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u1')
      .setAudience('cloudvault-download')
      .setIssuedAt(start)
      .setExpirationTime(inAnHour)
      .sign(joseKey);
    expect(ours).toBe(jose);
    const { payload } = await jwtVerify(ours, joseKey, { audience: 'cloudvault-download', currentDate: start });
    expect(payload).toEqual(claims);
  });

  it('hold until exp, from nbf, for the audience and issuer asked for', () => {
    const token = (extra: Record<string, unknown>) => signHs256({ sub: 'u1', iat: seconds(start), exp: seconds(inAnHour), ...extra }, key);
    expect(verifyJwt(token({}), key, atStart)).not.toBeNull();
    expect(verifyJwt(token({}), key, { now: new Date(inAnHour.getTime() - 1000) })).not.toBeNull();
    expect(verifyJwt(token({}), key, { now: inAnHour })).toBeNull();
    expect(verifyJwt(token({ exp: undefined }), key, atStart)).toBeNull();
    expect(verifyJwt(token({ exp: String(seconds(inAnHour)) }), key, atStart)).toBeNull();
    expect(verifyJwt(token({ nbf: seconds(start) + 60 }), key, atStart)).toBeNull();
    expect(verifyJwt(token({ nbf: seconds(start) }), key, atStart)).not.toBeNull();
    expect(verifyJwt(token({ iat: 'yesterday' }), key, atStart)).toBeNull();
    expect(verifyJwt(token({ aud: 'cloudvault-download' }), key, { ...atStart, audience: 'cloudvault-download' })).not.toBeNull();
    expect(
      verifyJwt(token({ aud: ['other', 'cloudvault-download'] }), key, { ...atStart, audience: 'cloudvault-download' }),
    ).not.toBeNull();
    expect(verifyJwt(token({ aud: 'cloudvault-share-access' }), key, { ...atStart, audience: 'cloudvault-download' })).toBeNull();
    expect(verifyJwt(token({}), key, { ...atStart, audience: 'cloudvault-download' })).toBeNull();
    expect(verifyJwt(token({ iss: 'cloudvault' }), key, { ...atStart, issuer: 'cloudvault' })).not.toBeNull();
    expect(verifyJwt(token({ iss: 'someone-else' }), key, { ...atStart, issuer: 'cloudvault' })).toBeNull();
    expect(verifyJwt(token({}), hs256Key(`${SECRET}-other`), atStart)).toBeNull();
  });
});
