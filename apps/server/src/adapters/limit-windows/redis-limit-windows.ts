import { Redis } from 'ioredis';
import type { Clock } from '../../lib/clock.ts';
import type { ServiceLog } from '../../lib/service-log.ts';
import type { LimitWindows } from './limit-windows.ts';

/**
 * Each key is a hash {count, ends}. Times come from the calling node's clock (ARGV), not
 * Redis's, so windows follow the injected clock like everything else that expires; the
 * key's own expiry only frees the memory once the window is over.
 * ARGV: now, windowMs, cap (0: no cap). Returns {counted 0/1, count, ends}.
 */
const COUNT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local cap = tonumber(ARGV[3])
local ends = tonumber(redis.call('HGET', KEYS[1], 'ends'))
if ends == nil or ends <= now then
  ends = now + window
  redis.call('HSET', KEYS[1], 'count', 1, 'ends', ends)
  redis.call('PEXPIRE', KEYS[1], window)
  return {1, 1, ends}
end
local count = tonumber(redis.call('HGET', KEYS[1], 'count'))
if cap > 0 and count >= cap then return {0, count, ends} end
return {1, redis.call('HINCRBY', KEYS[1], 'count', 1), ends}
`;

/** ARGV: now. Takes one back from a running window that holds any. */
const UNCOUNT = `
local ends = tonumber(redis.call('HGET', KEYS[1], 'ends'))
local count = tonumber(redis.call('HGET', KEYS[1], 'count'))
if ends ~= nil and ends > tonumber(ARGV[1]) and count > 0 then redis.call('HINCRBY', KEYS[1], 'count', -1) end
return 0
`;

/** ARGV: now, leaseMs, holder. Starts a lease {count 1, ends, holder} unless a running window holds the key; 1 when taken. */
const TAKE_LEASE = `
local ends = tonumber(redis.call('HGET', KEYS[1], 'ends'))
if ends ~= nil and ends > tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'count', 1, 'ends', tonumber(ARGV[1]) + tonumber(ARGV[2]), 'holder', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

/** ARGV: now, leaseMs, holder. Moves the end of the holder's running lease; 1 when it was theirs and running. */
const RENEW_LEASE = `
if redis.call('HGET', KEYS[1], 'holder') ~= ARGV[3] then return 0 end
local ends = tonumber(redis.call('HGET', KEYS[1], 'ends'))
if ends == nil or ends <= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'ends', tonumber(ARGV[1]) + tonumber(ARGV[2]))
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

/** ARGV: holder. Deletes the key when the holder's lease is on it. */
const RELEASE_LEASE = `
if redis.call('HGET', KEYS[1], 'holder') == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0
`;

/** A Redis that does not answer within this fails the limited request rather than holding it. */
const COMMAND_TIMEOUT_MS = 2_000;

/**
 * Limit windows in Redis (REDIS_URL), each operation one Lua script, so it is atomic
 * across nodes (docs/decisions/0019). While Redis is unreachable, commands fail at once
 * (no offline queue) and the connection keeps retrying in the background. Answers once
 * the first connection is made or has failed, so a node does not refuse its first
 * requests only because Redis had not answered yet.
 */
export async function createRedisLimitWindows(options: {
  url: string;
  keyPrefix: string;
  clock: Clock;
  log: ServiceLog;
}): Promise<LimitWindows> {
  const redis = new Redis(options.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: COMMAND_TIMEOUT_MS });
  const firstConnection = new Promise<void>((resolve) => {
    redis.once('ready', resolve);
    redis.once('error', () => resolve());
  });
  // Logged once per outage, not at every reconnection attempt.
  let down = false;
  redis.on('error', (error: Error) => {
    if (down) return;
    down = true;
    options.log.error({ err: error }, 'Redis (REDIS_URL) unreachable: rate-limited actions answer 503 until it is back');
  });
  redis.on('ready', () => {
    down = false;
  });
  const keyOf = (key: string) => `${options.keyPrefix}${key}`;
  const now = () => options.clock.now().getTime();
  await firstConnection;

  return {
    async count(key, windowMs, cap) {
      const [counted, count, ends] = (await redis.eval(COUNT, 1, keyOf(key), now(), windowMs, cap ?? 0)) as [number, number, number];
      return { counted: counted === 1, count, endsAt: ends };
    },
    async uncount(key) {
      await redis.eval(UNCOUNT, 1, keyOf(key), now());
    },
    async takeLease(key, holder, leaseMs) {
      return (await redis.eval(TAKE_LEASE, 1, keyOf(key), now(), leaseMs, holder)) === 1;
    },
    async renewLease(key, holder, leaseMs) {
      return (await redis.eval(RENEW_LEASE, 1, keyOf(key), now(), leaseMs, holder)) === 1;
    },
    async releaseLease(key, holder) {
      await redis.eval(RELEASE_LEASE, 1, keyOf(key), holder);
    },
    async clear(key) {
      await redis.del(keyOf(key));
    },
    async close() {
      if (redis.status === 'ready') await redis.quit();
      else redis.disconnect();
    },
  };
}
