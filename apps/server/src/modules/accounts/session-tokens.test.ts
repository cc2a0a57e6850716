import { createHmac } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createSessionTokens } from './session-tokens.ts';

const SECRET = 'a-test-secret-of-enough-length-0123456789';
const start = new Date('2026-11-24T12:00:00Z');
const clockAt = (date: Date) => ({ now: () => date });
const inAnHour = new Date(start.getTime() + 3600_000);

const base64url = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** A token built by hand: any header and payload, signed with `secret` as HS256 would be. */
function handMade(header: unknown, payload: unknown, secret = SECRET): string {
  const signed = `${base64url(header)}.${base64url(payload)}`;
  return `${signed}.${createHmac('sha256', secret).update(signed).digest('base64url')}`;
}

const validPayload = () => ({
  sub: 'user-1',
  sid: 'session-1',
  iss: 'cloudvault',
  iat: start.getTime() / 1000,
  exp: inAnHour.getTime() / 1000,
});

describe('session tokens', () => {
  const tokens = createSessionTokens(SECRET, clockAt(start));

  it('verifies what it signs', async () => {
    const token = await tokens.sign({ userId: 'user-1', sessionId: 'session-1', expiresAt: inAnHour });
    expect(await tokens.verify(token)).toEqual({ userId: 'user-1', sessionId: 'session-1' });
  });

  it('accepts a token jose signed with the same secret (the format of tokens already handed out)', async () => {
    const token = await new SignJWT({ sid: 'session-1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('user-1')
      .setIssuer('cloudvault')
      .setIssuedAt(start)
      .setExpirationTime(inAnHour)
      .sign(new TextEncoder().encode(SECRET));
    expect(await tokens.verify(token)).toEqual({ userId: 'user-1', sessionId: 'session-1' });
  });

  it('signs the bytes jose signs for the same claims', async () => {
    const ours = await tokens.sign({ userId: 'user-1', sessionId: 'session-1', expiresAt: inAnHour });
    const jose = await new SignJWT({ sid: 'session-1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('user-1')
      .setIssuer('cloudvault')
      .setIssuedAt(start)
      .setExpirationTime(inAnHour)
      .sign(new TextEncoder().encode(SECRET));
    expect(ours).toBe(jose);
  });

  it('refuses a token once the injected clock reaches its expiry', async () => {
    const token = await tokens.sign({ userId: 'user-1', sessionId: 'session-1', expiresAt: inAnHour });
    expect(await createSessionTokens(SECRET, clockAt(new Date(inAnHour.getTime() - 1000))).verify(token)).not.toBeNull();
    expect(await createSessionTokens(SECRET, clockAt(inAnHour)).verify(token)).toBeNull();
  });

  it('refuses a token it accepted before once the clock reaches its expiry', async () => {
    let now = start;
    const sameTokens = createSessionTokens(SECRET, { now: () => now });
    const token = await sameTokens.sign({ userId: 'user-1', sessionId: 'session-1', expiresAt: inAnHour });
    expect(await sameTokens.verify(token)).not.toBeNull();
    expect(await sameTokens.verify(token)).not.toBeNull();
    now = inAnHour;
    expect(await sameTokens.verify(token)).toBeNull();
  });

  it('refuses an altered copy of a token it accepted before', async () => {
    const token = await tokens.sign({ userId: 'user-1', sessionId: 'session-1', expiresAt: inAnHour });
    expect(await tokens.verify(token)).not.toBeNull();
    const [header, , signature] = token.split('.');
    expect(await tokens.verify(`${header}.${base64url({ ...validPayload(), sub: 'user-2' })}.${signature}`)).toBeNull();
    expect(await tokens.verify(`${token}x`)).toBeNull();
  });

  it('refuses a token signed with another secret', async () => {
    const token = await createSessionTokens('another-secret-of-enough-length-98765', clockAt(start)).sign({
      userId: 'user-1',
      sessionId: 'session-1',
      expiresAt: inAnHour,
    });
    expect(await tokens.verify(token)).toBeNull();
  });

  it('refuses a token whose payload was changed after signing', async () => {
    const [header, , signature] = (await tokens.sign({ userId: 'user-1', sessionId: 'session-1', expiresAt: inAnHour })).split('.');
    const forged = `${header}.${base64url({ ...validPayload(), sub: 'admin' })}.${signature}`;
    expect(await tokens.verify(forged)).toBeNull();
  });

  it('refuses alg none and every algorithm but HS256, even correctly signed', async () => {
    expect(await tokens.verify(`${base64url({ alg: 'none' })}.${base64url(validPayload())}.`)).toBeNull();
    expect(await tokens.verify(handMade({ alg: 'none' }, validPayload()))).toBeNull();
    expect(await tokens.verify(handMade({ alg: 'HS512' }, validPayload()))).toBeNull();
    expect(await tokens.verify(handMade({ alg: 'HS256', crit: ['b64'], b64: false }, validPayload()))).toBeNull();
    expect(await tokens.verify(handMade({ alg: 'HS256' }, validPayload()))).toEqual({ userId: 'user-1', sessionId: 'session-1' });
  });

  it('refuses wrong claims: issuer, missing or odd expiry, a future nbf, non-string sub or sid', async () => {
    const { exp: _exp, ...noExpiry } = validPayload();
    for (const payload of [
      { ...validPayload(), iss: 'someone-else' },
      noExpiry,
      { ...validPayload(), exp: String(inAnHour.getTime() / 1000) },
      { ...validPayload(), nbf: start.getTime() / 1000 + 60 },
      { ...validPayload(), iat: 'yesterday' },
      { ...validPayload(), sub: 42 },
      { ...validPayload(), sid: null },
    ]) {
      expect(await tokens.verify(handMade({ alg: 'HS256' }, payload)), JSON.stringify(payload)).toBeNull();
    }
  });

  it('refuses malformed tokens without throwing', async () => {
    const good = handMade({ alg: 'HS256' }, validPayload());
    const [header, payload, signature] = good.split('.') as [string, string, string];
    for (const token of [
      '',
      'not-a-token',
      `${header}.${payload}`,
      `${good}.extra`,
      `${header}.${payload}.${signature.slice(0, -2)}`,
      `${header}.${payload}.${signature}==`,
      `${header}.${payload}.${signature}!`,
      handMade('{not json', validPayload()),
      handMade({ alg: 'HS256' }, 'not json'),
      handMade({ alg: 'HS256' }, [1, 2]),
      handMade([{ alg: 'HS256' }], validPayload()),
    ]) {
      expect(await tokens.verify(token), token).toBeNull();
    }
  });
});
