import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabaseLimitWindows } from '../adapters/limit-windows/database-limit-windows.ts';
import { createRedisLimitWindows } from '../adapters/limit-windows/redis-limit-windows.ts';
import { openDatabase, type DatabaseHandle } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { AppError } from './errors.ts';
import { countAttempts, createFailureLimiter } from './failure-limiter.ts';

function clockAt(start: number) {
  let now = start;
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

const silentLog = { error: () => {}, warn: () => {} };

// The limiter over the windows of an embedded setup: a real SQLite file, migrated.
let dataDir: string;
let database: DatabaseHandle;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-limits-'));
  database = openDatabase({ databaseUrl: undefined, dataDir });
  await migrateToLatest(database.db, database.dialect);
});
afterAll(async () => {
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
});

let limits = 0;
function limiterFor(max: number, clock: ReturnType<typeof clockAt>) {
  limits += 1;
  return createFailureLimiter({
    name: `test-${limits}`,
    max,
    windowMs: 60_000,
    windows: createDatabaseLimitWindows(database.db, clock),
    clock,
    log: silentLog,
  });
}

describe('createFailureLimiter', () => {
  it('counts max attempts, then refuses until the window ends, counting nothing more', async () => {
    const clock = clockAt(0);
    const limiter = limiterFor(3, clock);
    for (let i = 0; i < 3; i += 1) expect(await limiter.attempt('k')).toBe(0);
    expect(await limiter.attempt('k')).toBe(60);
    clock.advance(30_000);
    expect(await limiter.attempt('k')).toBe(30);
    clock.advance(30_000);
    expect(await limiter.attempt('k')).toBe(0);
  });

  it('keeps keys apart and forgets a key on reset', async () => {
    const limiter = limiterFor(1, clockAt(0));
    expect(await limiter.attempt('a')).toBe(0);
    expect(await limiter.attempt('a')).toBeGreaterThan(0);
    expect(await limiter.attempt('b')).toBe(0);
    await limiter.reset('a');
    expect(await limiter.attempt('a')).toBe(0);
  });

  it('takes a forgiven attempt back within the window only', async () => {
    const clock = clockAt(0);
    const limiter = limiterFor(2, clock);
    await limiter.attempt('k');
    await limiter.attempt('k');
    await limiter.forgive('k');
    expect(await limiter.attempt('k')).toBe(0);
    expect(await limiter.attempt('k')).toBe(60);
    clock.advance(60_000);
    await limiter.forgive('k');
    expect(await limiter.attempt('k')).toBe(0);
    expect(await limiter.attempt('k')).toBe(0);
    expect(await limiter.attempt('k')).toBe(60);
  });

  it('lets exactly max of many parallel attempts through', async () => {
    const limiter = limiterFor(10, clockAt(0));
    const waits = await Promise.all(Array.from({ length: 30 }, () => limiter.attempt('k')));
    expect(waits.filter((wait) => wait === 0)).toHaveLength(10);
  });

  it('answers 503, not a pass, when the windows cannot be reached', async () => {
    const clock = clockAt(0);
    // A Redis address where nothing listens: the store is down.
    const windows = await createRedisLimitWindows({ url: 'redis://127.0.0.1:1', keyPrefix: 'test:', clock, log: silentLog });
    try {
      const limiter = createFailureLimiter({ name: 'down', max: 1, windowMs: 60_000, windows, clock, log: silentLog });
      await expect(limiter.attempt('k')).rejects.toMatchObject({ status: 503, code: 'LIMITS_UNAVAILABLE' });
      await expect(limiter.forgive('k')).resolves.toBeUndefined();
    } finally {
      await windows.close();
    }
  });
});

describe('countAttempts', () => {
  it('counts against every limit or none, and answers 429 with the wait of the one that refused', async () => {
    const clock = clockAt(0);
    const wide = limiterFor(5, clock);
    const narrow = limiterFor(1, clock);
    await countAttempts([wide, 'b'], [narrow, 'a']);
    clock.advance(20_000);
    const refused = await countAttempts([wide, 'b'], [narrow, 'a']).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 429, headers: { 'Retry-After': '40' } });
    // The refused attempt was taken back from the wide limit: 4 more fit, not 3.
    for (let i = 0; i < 4; i += 1) expect(await wide.attempt('b')).toBe(0);
    expect(await wide.attempt('b')).toBeGreaterThan(0);
  });

  it('asks a later limit nothing once an earlier one refuses', async () => {
    const clock = clockAt(0);
    const perAddress = limiterFor(1, clock);
    const perEmail = limiterFor(5, clock);
    await countAttempts([perAddress, 'ip'], [perEmail, 'first']);
    await expect(countAttempts([perAddress, 'ip'], [perEmail, 'second'])).rejects.toMatchObject({ status: 429 });
    // 'second' has no window: its five attempts are all still there.
    for (let i = 0; i < 5; i += 1) expect(await perEmail.attempt('second')).toBe(0);
    expect(await perEmail.attempt('second')).toBeGreaterThan(0);
  });
});
