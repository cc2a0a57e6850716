import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ServiceLog } from '../../lib/service-log.ts';
import { createDatabaseLimitWindows } from './database-limit-windows.ts';
import type { LimitWindows } from './limit-windows.ts';

/**
 * Redis when REDIS_URL is set, else the database every node already shares (docs/decisions/0019).
 * The Redis client is loaded only when configured: embedded setups never pay its memory.
 */
export async function createLimitWindows(options: {
  redisUrl: string | undefined;
  keyPrefix: string;
  db: Kysely<Database>;
  clock: Clock;
  log: ServiceLog;
}): Promise<LimitWindows> {
  if (options.redisUrl) {
    const { createRedisLimitWindows } = await import('./redis-limit-windows.ts');
    return createRedisLimitWindows({ url: options.redisUrl, keyPrefix: options.keyPrefix, clock: options.clock, log: options.log });
  }
  return createDatabaseLimitWindows(options.db, options.clock);
}
