import type { Clock } from '../../src/lib/clock.ts';

/** A clock the test moves: expiry and rate-limit windows without sleeping. */
export interface TestClock extends Clock {
  advance(ms: number): void;
}

export function createTestClock(start = new Date('2026-01-05T10:00:00.000Z')): TestClock {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance: (ms) => {
      now += ms;
    },
  };
}
