import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, matchTotpStep, newTotpSecret, otpauthUrl, totpCode, totpStep, verifyTotp } from './totp.ts';

// RFC 6238 appendix B, SHA-1: the secret is the ASCII "12345678901234567890".
const RFC_SECRET = base32Encode(Buffer.from('12345678901234567890'));

describe('totp', () => {
  it('matches the RFC 6238 test vectors', () => {
    expect(totpCode(RFC_SECRET, new Date(59_000), 8)).toBe('94287082');
    expect(totpCode(RFC_SECRET, new Date(1_111_111_109_000), 8)).toBe('07081804');
    expect(totpCode(RFC_SECRET, new Date(1_234_567_890_000), 8)).toBe('89005924');
    expect(totpCode(RFC_SECRET, new Date(2_000_000_000_000), 8)).toBe('69279037');
  });

  it('round-trips base32 and makes 160-bit secrets', () => {
    const bytes = Buffer.from([0, 1, 2, 250, 255, 17, 99]);
    expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode(newTotpSecret())).toHaveLength(20);
  });

  it('accepts the current code and one step either side, nothing else', () => {
    const secret = newTotpSecret();
    const now = new Date('2026-11-22T10:00:15Z');
    expect(verifyTotp(secret, totpCode(secret, now), now)).toBe(true);
    expect(verifyTotp(secret, totpCode(secret, new Date(now.getTime() - 30_000)), now)).toBe(true);
    expect(verifyTotp(secret, totpCode(secret, new Date(now.getTime() + 30_000)), now)).toBe(true);
    expect(verifyTotp(secret, totpCode(secret, new Date(now.getTime() + 90_000)), now)).toBe(false);
    expect(verifyTotp(secret, 'abcdef', now)).toBe(false);
    expect(verifyTotp(secret, '12345', now)).toBe(false);
  });

  it('names the time step a code belongs to, so a used step can be refused', () => {
    const secret = newTotpSecret();
    const now = new Date('2026-11-22T10:00:15Z');
    const step = totpStep(now);
    expect(step).toBe(Math.floor(now.getTime() / 30_000));
    expect(matchTotpStep(secret, totpCode(secret, now), now)).toBe(step);
    expect(matchTotpStep(secret, totpCode(secret, new Date(now.getTime() - 30_000)), now)).toBe(step - 1);
    expect(matchTotpStep(secret, totpCode(secret, new Date(now.getTime() + 30_000)), now)).toBe(step + 1);
    expect(matchTotpStep(secret, totpCode(secret, new Date(now.getTime() + 90_000)), now)).toBeNull();
  });

  it('writes the otpauth address authenticator apps read', () => {
    expect(otpauthUrl('ABC', 'ada@example.com')).toBe(
      'otpauth://totp/CloudVault%3Aada%40example.com?secret=ABC&issuer=CloudVault&algorithm=SHA1&digits=6&period=30',
    );
  });
});
