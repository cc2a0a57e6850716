import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Locker } from '@tus/utils';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDatabaseLimitWindows } from '../src/adapters/limit-windows/database-limit-windows.ts';
import type { LimitWindows } from '../src/adapters/limit-windows/limit-windows.ts';
import { createRedisLimitWindows } from '../src/adapters/limit-windows/redis-limit-windows.ts';
import { createUploadLocker } from '../src/adapters/resumable-store/upload-locker.ts';
import { openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createTestDatabase } from './helpers/test-database.ts';
import { deleteRedisKeys, testRedisUrl } from './helpers/test-redis.ts';
import { waitFor } from './helpers/wait-for.ts';

// A tus upload's lock is leased (docs/decisions/0025-resumable-uploads.md): a node that
// stalls past its lease loses the lock to the next one. When the stalled node wakes up,
// its unlock and its renewals must leave the new holder's lock as it is.

/** Long in real time, so that no renewal fires unless a test makes it: leases end by the test's clock. */
const LEASE_MS = 60_000;
const signal = new AbortController().signal;
const noRelease = () => {};

let now = Date.parse('2026-12-01T00:00:00Z');
const clock = { now: () => new Date(now) };

/** Whether anyone holds `id`'s lock now: a try that gives up at once when it is held. */
async function isHeld(windows: LimitWindows, id: string): Promise<boolean> {
  const attempt = createUploadLocker(windows, { leaseMs: LEASE_MS, waitMs: 0, pollMs: 1 }).newLock(id);
  try {
    await attempt.lock(AbortSignal.abort(), noRelease);
  } catch {
    return true;
  }
  await attempt.unlock();
  return false;
}

function leaseTests(windowsOf: () => LimitWindows) {
  const lockerOf = (leaseMs = LEASE_MS): Locker => createUploadLocker(windowsOf(), { leaseMs, waitMs: 0, pollMs: 1 });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("leaves the next holder's lock in place when a holder whose lease lapsed unlocks", async () => {
    const id = randomBytes(8).toString('hex');
    const stalled = lockerOf().newLock(id);
    await stalled.lock(signal, noRelease);
    now += LEASE_MS + 1;
    const next = lockerOf().newLock(id);
    await next.lock(signal, noRelease);

    await stalled.unlock();
    expect(await isHeld(windowsOf(), id)).toBe(true);
    await next.unlock();
    expect(await isHeld(windowsOf(), id)).toBe(false);
  });

  it("neither lengthens nor shortens the next holder's lease when a holder whose lease lapsed renews, and stops renewing", async () => {
    const id = randomBytes(8).toString('hex');
    // Only the renewals' timers are the test's; the stalled holder renews every third of its 30 s lease.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const stalled = lockerOf(LEASE_MS / 2).newLock(id);
    await stalled.lock(signal, noRelease);
    now += LEASE_MS / 2 + 1;
    const next = lockerOf().newLock(id);
    await next.lock(signal, noRelease);
    const nextLeaseEnds = now + LEASE_MS;
    expect(vi.getTimerCount()).toBe(2);

    // The stalled holder's renewal comes first (every 10 s against the next holder's 20 s).
    vi.advanceTimersByTime(LEASE_MS / 6);
    // A renewal that finds the lock gone stops its timer: that is when it has answered.
    await waitFor('the stalled holder to give up renewing', async () => vi.getTimerCount() === 1, 5_000, 5);

    now = nextLeaseEnds - 1;
    expect(await isHeld(windowsOf(), id)).toBe(true);
    now = nextLeaseEnds;
    expect(await isHeld(windowsOf(), id)).toBe(false);
    await stalled.unlock();
    await next.unlock();
  });
}

describe(`upload locks in the database (${process.env.TEST_DB === 'postgres' ? 'PostgreSQL' : 'SQLite'})`, () => {
  let dataDir: string;
  let drop: () => Promise<void>;
  let database: DatabaseHandle;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-upload-locks-'));
    const testDatabase = await createTestDatabase();
    drop = testDatabase.drop;
    database = openDatabase({ databaseUrl: testDatabase.url, dataDir });
    await migrateToLatest(database.db, database.dialect);
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
    await rm(dataDir, { recursive: true, force: true });
  });

  leaseTests(() => createDatabaseLimitWindows(database.db, clock));
});

describe.skipIf(!process.env.TEST_REDIS_URL)('upload locks in Redis (REDIS_URL; set TEST_REDIS_URL to run)', () => {
  const keyPrefix = `test:upload-locks:${randomBytes(6).toString('hex')}:`;
  let windows: LimitWindows;
  beforeAll(async () => {
    windows = await createRedisLimitWindows({
      url: testRedisUrl(),
      keyPrefix,
      clock,
      log: { error: () => {}, warn: () => {}, info: () => {} } as never,
    });
  });
  afterAll(async () => {
    await windows?.close();
    await deleteRedisKeys(testRedisUrl(), keyPrefix);
  });

  leaseTests(() => windows);
});
