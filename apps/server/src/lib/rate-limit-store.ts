import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { LimitWindows } from '../adapters/limit-windows/limit-windows.ts';
import type { Clock } from './clock.ts';
import { limitsUnavailable } from './errors.ts';
import type { ServiceLog } from './service-log.ts';

/** What @fastify/rate-limit hands `child` at run time: the merged route options with the route (its typings name other fields). */
interface RouteLimitOptions {
  routeInfo: { method: string | string[]; url: string };
}

/**
 * @fastify/rate-limit's store over the shared limit windows (docs/decisions/0019), so
 * every node counts the same requests: one window per route and key (the client's
 * address). When the windows cannot be reached the request fails closed with 503.
 */
export function sharedRateLimitStore(options: { windows: LimitWindows; clock: Clock; log: ServiceLog }): FastifyRateLimitStoreCtor {
  const { windows, clock, log } = options;

  class SharedRateLimitStore implements FastifyRateLimitStore {
    constructor(
      _options: FastifyRateLimitOptions,
      private readonly prefix = 'rate:',
    ) {}

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      windows.count(`${this.prefix}${key}`, timeWindow).then(
        (window) => callback(null, { current: window.count, ttl: Math.max(0, window.endsAt - clock.now().getTime()) }),
        (error: unknown) => {
          log.error({ err: error, limit: this.prefix }, 'limit store unreachable: the limited action answers 503');
          callback(limitsUnavailable());
        },
      );
    }

    child(routeOptions: object): FastifyRateLimitStore {
      const { routeInfo } = routeOptions as RouteLimitOptions;
      return new SharedRateLimitStore({}, `rate:${String(routeInfo.method)}:${routeInfo.url}:`);
    }
  }

  return SharedRateLimitStore;
}
