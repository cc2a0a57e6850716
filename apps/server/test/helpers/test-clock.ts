import type { Clock } from '../../src/lib/clock.ts';

/** A clock the test moves: expiry and rate-limit windows without sleeping. */
export interface TestClock extends Clock {
  advance(ms: number): void;
}

/**
 * From `start`, still until moved; or, following real time, the system time plus what the
 * test moved it by: for tests where another process's clock (a second node) must agree.
 */
export function createTestClock(start: Date | 'real-time' = new Date('2026-01-05T10:00:00.000Z')): TestClock {
  if (start === 'real-time') {
    let offset = 0;
    return {
      now: () => new Date(Date.now() + offset),
      advance: (ms) => {
        offset += ms;
      },
    };
  }
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance: (ms) => {
      now += ms;
    },
  };
}
