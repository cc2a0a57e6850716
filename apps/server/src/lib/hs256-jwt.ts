import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';

/**
 * The server's one JWT implementation: HS256 compact tokens signed and checked with
 * node:crypto, synchronously. A library checking through WebCrypto (jose) costs a promise
 * and a job per call, about 9 % of a signed-in request's CPU (docs/decisions/0034-request-cost.md).
 * The tokens are the bytes jose writes for the same claims, so either can read the other's.
 */

/** An HMAC key for HS256, made once from the secret. */
export const hs256Key = (secret: string): KeyObject => createSecretKey(Buffer.from(secret, 'utf8'));

/** A token's claims: RFC 7519's registered ones and any of the caller's. */
export type JwtPayload = Record<string, unknown>;

const SIGNATURE_BYTES = 32;
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256' })).toString('base64url');

const signature = (signed: string, key: KeyObject): Buffer => createHmac('sha256', key).update(signed).digest();

/** A compact JWS of `payload`, HS256 with `key`; the claims in the order given. */
export function signHs256(payload: JwtPayload, key: KeyObject): string {
  const signed = `${HEADER}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return `${signed}.${signature(signed, key).toString('base64url')}`;
}

/** A JWT NumericDate (seconds since the epoch) of a moment. */
export const numericDate = (date: Date): number => Math.floor(date.getTime() / 1000);

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
 * malformed. The claims are not checked here (`claimsHold`).
 */
export function verifyHs256(token: string, key: KeyObject): JwtPayload | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [header, payload, given] = parts as [string, string, string];
  const givenBytes = Buffer.from(given, 'base64url');
  // base64url decoding skips stray characters; only the canonical spelling of the 32 bytes counts.
  if (
    givenBytes.length !== SIGNATURE_BYTES ||
    givenBytes.toString('base64url') !== given ||
    !timingSafeEqual(givenBytes, signature(`${header}.${payload}`, key))
  )
    return null;
  const protectedHeader = decodeJson(header);
  if (!isObject(protectedHeader) || protectedHeader.alg !== 'HS256' || 'crit' in protectedHeader) return null;
  const claims = decodeJson(payload);
  return isObject(claims) ? claims : null;
}

/** What a verified payload's registered claims must say. */
export interface ClaimRules {
  now: Date;
  issuer?: string;
  audience?: string;
}

const isNumericDate = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * Whether the registered claims hold at `now`, with jose's bounds: expired at exp, valid from
 * nbf, no leeway. exp is required, as every token we sign has one; iss must equal the issuer
 * and aud be (or list) the audience when those are asked for.
 */
export function claimsHold(payload: JwtPayload, rules: ClaimRules): boolean {
  const now = numericDate(rules.now);
  if (!isNumericDate(payload.exp) || payload.exp <= now) return false;
  if (payload.nbf !== undefined && (!isNumericDate(payload.nbf) || payload.nbf > now)) return false;
  if (payload.iat !== undefined && !isNumericDate(payload.iat)) return false;
  if (rules.issuer !== undefined && payload.iss !== rules.issuer) return false;
  if (rules.audience !== undefined) {
    const { aud } = payload;
    if (!(aud === rules.audience || (Array.isArray(aud) && aud.includes(rules.audience)))) return false;
  }
  return true;
}

/** The payload of a token signed by `key` whose claims hold, or null. */
export function verifyJwt(token: string, key: KeyObject, rules: ClaimRules): JwtPayload | null {
  const payload = verifyHs256(token, key);
  return payload && claimsHold(payload, rules) ? payload : null;
}
