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
