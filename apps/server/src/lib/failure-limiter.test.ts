import { describe, expect, it } from 'vitest';
import { createFailureLimiter } from './failure-limiter.ts';

function clockAt(start: number) {
  let now = start;
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

describe('createFailureLimiter', () => {
  it('blocks a key after max failures until its window ends', () => {
    const clock = clockAt(0);
    const limiter = createFailureLimiter({ max: 3, windowMs: 60_000, clock });
    for (let i = 0; i < 3; i += 1) {
      expect(limiter.retryAfter('k')).toBe(0);
      limiter.recordFailure('k');
    }
    expect(limiter.retryAfter('k')).toBe(60);
    clock.advance(30_000);
    expect(limiter.retryAfter('k')).toBe(30);
    clock.advance(30_000);
    expect(limiter.retryAfter('k')).toBe(0);
  });

  it('keeps keys apart and forgets a key on reset', () => {
    const limiter = createFailureLimiter({ max: 1, windowMs: 60_000, clock: clockAt(0) });
    limiter.recordFailure('a');
    expect(limiter.retryAfter('a')).toBeGreaterThan(0);
    expect(limiter.retryAfter('b')).toBe(0);
    limiter.reset('a');
    expect(limiter.retryAfter('a')).toBe(0);
  });
});
