import { describe, expect, it } from 'vitest';
import { rememberVerifiedPasswords } from './verified-passwords.ts';

function setUp(maxEntries = 3) {
  let now = Date.parse('2026-11-24T12:00:00Z');
  const calls: string[] = [];
  // A stand-in slow verify: the "hash" is the password it accepts.
  const verify = async (hash: string, password: string) => {
    calls.push(password);
    return hash === `hash:${password}`;
  };
  const remembered = rememberVerifiedPasswords(verify, { maxEntries, ttlMs: 60_000, clock: { now: () => new Date(now) } });
  return { remembered, calls, advance: (ms: number) => (now += ms) };
}

describe('rememberVerifiedPasswords', () => {
  it('verifies a right password once while it is remembered', async () => {
    const { remembered, calls } = setUp();
    expect(await remembered('hash:secret', 'secret')).toBe(true);
    expect(await remembered('hash:secret', 'secret')).toBe(true);
    expect(calls).toEqual(['secret']);
  });

  it('never remembers a wrong password, and a remembered one does not open another hash', async () => {
    const { remembered, calls } = setUp();
    expect(await remembered('hash:secret', 'guess')).toBe(false);
    expect(await remembered('hash:secret', 'guess')).toBe(false);
    expect(await remembered('hash:secret', 'secret')).toBe(true);
    // The password changed: the stored hash is new, so the old password is checked again and fails.
    expect(await remembered('hash:changed', 'secret')).toBe(false);
    expect(calls).toEqual(['guess', 'guess', 'secret', 'secret']);
  });

  it('verifies again once the entry expired', async () => {
    const { remembered, calls, advance } = setUp();
    await remembered('hash:secret', 'secret');
    advance(60_001);
    expect(await remembered('hash:secret', 'secret')).toBe(true);
    expect(calls).toEqual(['secret', 'secret']);
  });

  it('holds at most maxEntries, forgetting the oldest', async () => {
    const { remembered, calls } = setUp(2);
    for (const password of ['a', 'b', 'c']) await remembered(`hash:${password}`, password);
    await remembered('hash:c', 'c');
    await remembered('hash:a', 'a');
    expect(calls).toEqual(['a', 'b', 'c', 'a']);
  });
});
