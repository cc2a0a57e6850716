import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../db/database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { createDatabaseLimitWindows } from '../limit-windows/database-limit-windows.ts';
import { createUploadLocker } from './upload-locker.ts';

// Two nodes' lockers over one database, each with its own clock reading the same time.
let dataDir: string;
let database: DatabaseHandle;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-locks-'));
  database = openDatabase({ databaseUrl: undefined, dataDir });
  await migrateToLatest(database.db, database.dialect);
});
afterAll(async () => {
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
});

let now = 0;
const clock = { now: () => new Date(now) };
const lockerOf = () => createUploadLocker(createDatabaseLimitWindows(database.db, clock), { leaseMs: 60, waitMs: 300, pollMs: 10 });
const signal = new AbortController().signal;

it('lets one node hold an upload at a time, and the other take it once released', async () => {
  const [nodeA, nodeB] = [lockerOf(), lockerOf()];
  const held = nodeA.newLock('u1');
  await held.lock(signal, () => {});
  const waiting = nodeB.newLock('u1');
  let taken = false;
  const taking = waiting.lock(signal, () => {}).then(() => (taken = true));
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(taken).toBe(false);
  await held.unlock();
  await taking;
  expect(taken).toBe(true);
  await waiting.unlock();
});

it("keeps a lock past its lease while renewed, and frees a dead holder's after the lease", async () => {
  const [nodeA, nodeB] = [lockerOf(), lockerOf()];
  const held = nodeA.newLock('u2');
  await held.lock(signal, () => {});
  // Time passes in small steps while the holder renews every third of the lease.
  for (let step = 0; step < 10; step++) {
    now += 15;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  await expect(nodeB.newLock('u2').lock(AbortSignal.abort(), () => {})).rejects.toMatchObject({ status_code: 400 });
  await held.unlock();
  // A holder that never unlocks (its node froze): once time passes its lease unrenewed, another node takes it.
  await nodeA.newLock('u3').lock(signal, () => {});
  now += 1000;
  const taken = nodeB.newLock('u3');
  await taken.lock(signal, () => {});
  await taken.unlock();
});
