import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/** RFC 6238 as authenticator apps use it: SHA-1, 30-second steps, 6 digits. */
const STEP_SECONDS = 30;
const DIGITS = 6;

export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const character of clean) {
    const index = BASE32.indexOf(character);
    if (index === -1) throw new Error('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new secret of 160 bits (RFC 4226's recommendation), base32 for authenticator apps. */
export function newTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** The time step (RFC 6238's counter T) of a moment. */
export function totpStep(at: Date): number {
  return Math.floor(at.getTime() / 1000 / STEP_SECONDS);
}

/** The code for a moment (RFC 4226 dynamic truncation of HMAC-SHA-1 over the step counter). */
export function totpCode(secret: string, at: Date, digits = DIGITS): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(totpStep(at)));
  const hmac = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = (hmac[hmac.length - 1] as number) & 0x0f;
  const binary = hmac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/**
 * The time step whose code this is, among the current one and its neighbours (a clock off
 * by up to 30 seconds), or null. The caller refuses a step already used (RFC 6238 section 5.2).
 */
export function matchTotpStep(secret: string, code: string, at: Date): number | null {
  const given = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(given)) return null;
  const match = [-1, 0, 1].find((offset) => {
    const expected = totpCode(secret, new Date(at.getTime() + offset * STEP_SECONDS * 1000));
    return timingSafeEqual(Buffer.from(expected), Buffer.from(given));
  });
  return match === undefined ? null : totpStep(at) + match;
}

/** Accepts the current code and its neighbours (a clock off by up to 30 seconds). */
export function verifyTotp(secret: string, code: string, at: Date): boolean {
  return matchTotpStep(secret, code, at) !== null;
}

/** The otpauth:// address an authenticator app reads from the QR code. */
export function otpauthUrl(secret: string, account: string, issuer = 'CloudVault'): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=${DIGITS}&period=${STEP_SECONDS}`;
}
