import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';

/** An HMAC key for HS256, made once from the secret. */
export const hs256Key = (secret: string): KeyObject => createSecretKey(Buffer.from(secret, 'utf8'));

/** The part of RFC 7519's claims the callers check; anything else in the payload is kept as it is. */
export type JwtPayload = Record<string, unknown>;

const SIGNATURE_BYTES = 32;

function decodeJson(part: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The payload of a compact JWS signed with HS256 by `key`, or null: a forged or altered
 * token, another algorithm ("none" included), critical header extensions, or anything
 * malformed. Synchronous with node:crypto's HMAC: jose's check goes through WebCrypto,
 * whose promise and job per call cost about 9 % of a signed-in request's CPU
 * (docs/decisions/0034-request-cost.md). The claims (issuer, expiry) are the caller's.
 */
export function verifyHs256(token: string, key: KeyObject): JwtPayload | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [header, payload, signature] = parts as [string, string, string];
  const expected = createHmac('sha256', key).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  // base64url decoding skips stray characters; only the canonical spelling of the 32 bytes counts.
  if (given.length !== SIGNATURE_BYTES || given.toString('base64url') !== signature || !timingSafeEqual(given, expected)) return null;
  const protectedHeader = decodeJson(header);
  if (!isObject(protectedHeader) || protectedHeader.alg !== 'HS256' || 'crit' in protectedHeader) return null;
  const claims = decodeJson(payload);
  return isObject(claims) ? claims : null;
}
