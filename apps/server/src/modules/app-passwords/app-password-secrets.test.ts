import { describe, expect, it } from 'vitest';
import { hashAppPasswordSecret, looksLikeAppPassword, newAppPasswordSecret } from './app-password-secrets.ts';

describe('app password secrets', () => {
  it('are five groups of six unambiguous characters, different each time', () => {
    const secrets = new Set(Array.from({ length: 200 }, newAppPasswordSecret));
    expect(secrets.size).toBe(200);
    for (const secret of secrets) expect(secret).toMatch(/^([a-km-np-z2-9]{6}-){4}[a-km-np-z2-9]{6}$/);
  });

  it('hash the same whatever the dashes, spaces and case a client sends back', () => {
    const secret = newAppPasswordSecret();
    const hash = hashAppPasswordSecret(secret);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashAppPasswordSecret(secret.replaceAll('-', ''))).toBe(hash);
    expect(hashAppPasswordSecret(secret.toUpperCase().replaceAll('-', ' '))).toBe(hash);
    expect(hashAppPasswordSecret(newAppPasswordSecret())).not.toBe(hash);
  });

  it('tell an app password from an ordinary password by its shape', () => {
    expect(looksLikeAppPassword(newAppPasswordSecret())).toBe(true);
    expect(looksLikeAppPassword(newAppPasswordSecret().toUpperCase().replaceAll('-', ''))).toBe(true);
    expect(looksLikeAppPassword('correct horse battery staple')).toBe(false);
    expect(looksLikeAppPassword(`${newAppPasswordSecret()}x`)).toBe(false);
    // 0, 1, l and o are never drawn.
    expect(looksLikeAppPassword('000000-111111-llllll-oooooo-aaaaaa')).toBe(false);
  });
});
