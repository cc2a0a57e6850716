import type { Clock } from './clock.ts';

/**
 * Counts failures per key in a fixed window (failed sign-ins per e-mail and address and
 * per address, wrong share passwords), or any event that only some requests cause (the
 * invitations a share sends). Successful attempts are not counted, which the generic rate
 * limiter cannot express. In memory: one server process holds the counters.
 */
export interface FailureLimiter {
  /** Seconds until the key may try again, or 0 when it may try now. */
  retryAfter(key: string): number;
  recordFailure(key: string): void;
  /** Takes back one recorded failure: the attempt counted up front succeeded. */
  forgive(key: string): void;
  reset(key: string): void;
}

export function createFailureLimiter(options: { max: number; windowMs: number; clock: Clock }): FailureLimiter {
  const windows = new Map<string, { count: number; endsAt: number }>();

  function current(key: string) {
    const now = options.clock.now().getTime();
    const window = windows.get(key);
    if (window && window.endsAt > now) return window;
    windows.delete(key);
    return undefined;
  }

  function sweep(now: number) {
    // Bounded memory under a spray of distinct keys.
    if (windows.size < 10_000) return;
    for (const [key, window] of windows) if (window.endsAt <= now) windows.delete(key);
  }

  return {
    retryAfter(key) {
      const window = current(key);
      if (!window || window.count < options.max) return 0;
      return Math.ceil((window.endsAt - options.clock.now().getTime()) / 1000);
    },
    recordFailure(key) {
      const now = options.clock.now().getTime();
      const window = current(key);
      if (window) window.count += 1;
      else {
        sweep(now);
        windows.set(key, { count: 1, endsAt: now + options.windowMs });
      }
    },
    forgive(key) {
      const window = current(key);
      if (window && window.count > 0) window.count -= 1;
    },
    reset(key) {
      windows.delete(key);
    },
  };
}
