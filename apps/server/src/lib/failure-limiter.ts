import type { LimitWindows } from '../adapters/limit-windows/limit-windows.ts';
import type { Clock } from './clock.ts';
import { limitsUnavailable, tooManyRequests } from './errors.ts';
import type { ServiceLog } from './service-log.ts';

/**
 * Counts failures per key in a fixed window (failed sign-ins per e-mail and address and
 * per address, wrong share passwords), or any event that only some requests cause (the
 * invitations a share sends). Successful attempts are not counted, which the generic rate
 * limiter cannot express. The counters are shared by every node (docs/decisions/0019).
 */
export interface FailureLimiter {
  /**
   * Counts one attempt up front and answers 0; or, when the key has reached its limit,
   * counts nothing and answers the seconds until it may try again.
   */
  attempt(key: string): Promise<number>;
  /** Takes back one counted attempt: the attempt counted up front succeeded. */
  forgive(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

/**
 * A limit of `max` attempts per key in `windowMs`, kept under `name` in the shared windows.
 * When the store cannot be reached, an attempt fails closed with 503 (docs/decisions/0019);
 * taking an attempt back only logs the failure, as the attempt it leaves counted errs on the strict side.
 */
export function createFailureLimiter(options: {
  name: string;
  max: number;
  windowMs: number;
  windows: LimitWindows;
  clock: Clock;
  log: ServiceLog;
}): FailureLimiter {
  const { windows, log } = options;
  const keyOf = (key: string) => `${options.name}:${key}`;
  return {
    async attempt(key) {
      let result;
      try {
        result = await windows.count(keyOf(key), options.windowMs, options.max);
      } catch (error) {
        log.error({ err: error, limit: options.name }, 'limit store unreachable: the limited action answers 503');
        throw limitsUnavailable();
      }
      if (result.counted) return 0;
      return Math.max(1, Math.ceil((result.endsAt - options.clock.now().getTime()) / 1000));
    },
    async forgive(key) {
      await windows
        .uncount(keyOf(key))
        .catch((error: unknown) => log.error({ err: error, limit: options.name }, 'limit store unreachable: an attempt stays counted'));
    },
    async reset(key) {
      await windows
        .clear(keyOf(key))
        .catch((error: unknown) => log.error({ err: error, limit: options.name }, 'limit store unreachable: a window stays counted'));
    },
  };
}

/**
 * Counts one attempt against every limit, or against none. The limits are asked in the
 * order given and a later one only once every earlier one counted, so the caller puts the
 * limit with the fewest keys first (per client address before per e-mail): a refused
 * address then creates no window per e-mail it tries. When one refuses, the attempts
 * counted before it are taken back and 429 answers with its wait. Counted before the work
 * they guard, so parallel requests cannot all slip through.
 */
export async function countAttempts(...limits: Array<readonly [FailureLimiter, string]>): Promise<void> {
  const counted: Array<readonly [FailureLimiter, string]> = [];
  for (const limit of limits) {
    const [limiter, key] = limit;
    const wait = await limiter.attempt(key);
    if (wait > 0) {
      await Promise.all(counted.map(([earlier, earlierKey]) => earlier.forgive(earlierKey)));
      throw tooManyRequests(wait);
    }
    counted.push(limit);
  }
}
