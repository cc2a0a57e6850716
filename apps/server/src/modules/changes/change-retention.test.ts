import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { folderChange, recordTreeChanges } from '../../db/change-journal.ts';
import { openDatabase, type DatabaseHandle } from '../../db/database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { CHANGE_FEED } from '../../policies.ts';
import { createChangeRetention } from './change-retention.ts';

// The retention over a real journal: a migrated SQLite file, entries written the one way
// they are written (recordTreeChanges). PostgreSQL and the 410 it leads to are proven over
// HTTP in apps/server/test/changes-trash.test.ts.

const DAY = 24 * 60 * 60 * 1000;
const START = new Date('2026-03-01T00:00:00.000Z').getTime();

let dataDir: string;
let database: DatabaseHandle;
let now = START;
const clock = { now: () => new Date(now) };

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-retention-'));
  database = openDatabase({ databaseUrl: undefined, dataDir });
  await migrateToLatest(database.db, database.dialect);
});
afterAll(async () => {
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await database.db.deleteFrom('changes').execute();
  await database.db.deleteFrom('change_heads').execute();
  await database.db.deleteFrom('users').execute();
  for (const id of ['ada', 'bob'])
    await database.db
      .insertInto('users')
      .values({
        id,
        email: `${id}@example.com`,
        first_name: id,
        last_name: '',
        password_hash: '',
        plan_id: 'FREE',
        storage_used: 0,
        two_factor_enabled: 0,
        totp_secret: null,
        totp_pending_secret: null,
        email_verified_at: null,
        totp_last_step: null,
        created_at: new Date(START).toISOString(),
        updated_at: new Date(START).toISOString(),
      })
      .execute();
  now = START;
});

/** One entry in the account's feed, dated `daysAgo` before now. */
async function write(userId: string, name: string, daysAgo: number): Promise<void> {
  const at = new Date(now - daysAgo * DAY).toISOString();
  await database.db
    .transaction()
    .execute((trx) => recordTreeChanges(trx, userId, [folderChange('created', { id: name, parent_id: null, name, updated_at: at })], at));
}

const journal = async (userId: string) =>
  (await database.db.selectFrom('changes').select(['seq', 'name']).where('user_id', '=', userId).orderBy('seq').execute()).map(
    (row) => `${row.seq}:${row.name}`,
  );
const prunedThrough = async (userId: string) =>
  Number(
    (await database.db.selectFrom('change_heads').select('pruned_through').where('user_id', '=', userId).executeTakeFirstOrThrow())
      .pruned_through,
  );

describe('the change journal’s retention', () => {
  it('removes the entries older than the retention in batches and raises each account’s pruned_through to the last removed', async () => {
    const retentionDays = CHANGE_FEED.retentionMs / DAY;
    for (const [index, daysAgo] of [40, 35, 31, 29, 1].entries()) await write('ada', `a${index + 1}`, daysAgo);
    for (const [index, daysAgo] of [32, 2].entries()) await write('bob', `b${index + 1}`, daysAgo);
    expect(retentionDays).toBe(30);

    const retention = createChangeRetention({ db: database.db, clock, batch: 2 });
    expect(await retention.prune()).toEqual({ entries: 4, accounts: 2 });
    expect(await journal('ada')).toEqual(['4:a4', '5:a5']);
    expect(await prunedThrough('ada')).toBe(3);
    expect(await journal('bob')).toEqual(['2:b2']);
    expect(await prunedThrough('bob')).toBe(1);

    // Nothing more has expired: a run again removes nothing and moves nothing.
    expect(await retention.prune()).toEqual({ entries: 0, accounts: 0 });
    expect(await prunedThrough('ada')).toBe(3);

    // A day later the next entry has expired; numbering goes on where it was.
    now += 2 * DAY;
    await write('ada', 'a6', 0);
    expect(await retention.prune()).toEqual({ entries: 1, accounts: 1 });
    expect(await journal('ada')).toEqual(['5:a5', '6:a6']);
    expect(await prunedThrough('ada')).toBe(4);
  });

  it('removes each entry once when two runs go at once', async () => {
    for (let index = 0; index < 9; index += 1) await write(index % 2 ? 'ada' : 'bob', `e${index}`, 60 - index);
    await write('ada', 'fresh', 0);
    const runs = await Promise.all([
      createChangeRetention({ db: database.db, clock, batch: 2 }).prune(),
      createChangeRetention({ db: database.db, clock, batch: 3 }).prune(),
    ]);
    expect(runs[0]!.entries + runs[1]!.entries).toBe(9);
    expect(await journal('ada')).toEqual(['5:fresh']);
    expect(await prunedThrough('ada')).toBe(4);
    expect(await journal('bob')).toEqual([]);
    expect(await prunedThrough('bob')).toBe(5);
  });

  it('takes the entries numbered before an expired one with it: committed late, stamped with an older time', async () => {
    await write('ada', 'old', 45);
    await write('ada', 'fresh', 3);
    // Committed last, stamped with the older time its transaction started at.
    await write('ada', 'late', 31);
    await write('ada', 'newest', 0);
    expect(await createChangeRetention({ db: database.db, clock }).prune()).toEqual({ entries: 3, accounts: 1 });
    expect(await journal('ada')).toEqual(['4:newest']);
    expect(await prunedThrough('ada')).toBe(3);
  });
});
