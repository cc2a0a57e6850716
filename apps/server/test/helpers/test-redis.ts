import { Redis } from 'ioredis';

/** The Redis that tests share limits through (TEST_REDIS_URL); each test server keeps its keys under a prefix of its own. */
export function testRedisUrl(): string {
  const url = process.env.TEST_REDIS_URL;
  if (!url) throw new Error('Redis tests need TEST_REDIS_URL, for example redis://127.0.0.1:6379');
  return url;
}

/** Removes a test server's keys, so the shared Redis keeps nothing of the run. */
export async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 500 }) as AsyncIterable<string[]>) {
      if (keys.length > 0) await redis.del(...keys);
    }
  } finally {
    await redis.quit();
  }
}

/** The Redis a cluster's nodes share (.ci/run starts it); TEST_REDIS_URL points elsewhere. */
const CLUSTER_REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/**
 * A Redis database number of this run's own, for server processes whose keys take no test
 * prefix: the first of 1–15, from a random start, that holds no keys, so runs side by side
 * do not share counters. Answers the URL the processes use, and a release that empties it.
 */
export async function claimRedisDatabase(): Promise<{ url: string; release(): Promise<void> }> {
  const redis = new Redis(CLUSTER_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const start = 1 + Math.floor(Math.random() * 15);
    for (let offset = 0; offset < 15; offset += 1) {
      const db = 1 + ((start - 1 + offset) % 15);
      await redis.select(db);
      if ((await redis.dbsize()) === 0) {
        return { url: `${CLUSTER_REDIS_URL.replace(/\/\d*$/, '')}/${db}`, release: () => flushDatabase(db) };
      }
    }
    throw new Error(`No empty database among 1–15 on ${CLUSTER_REDIS_URL}`);
  } finally {
    redis.disconnect();
  }
}

async function flushDatabase(db: number): Promise<void> {
  const redis = new Redis(CLUSTER_REDIS_URL, { db });
  try {
    await redis.flushdb();
  } finally {
    await redis.quit();
  }
}
