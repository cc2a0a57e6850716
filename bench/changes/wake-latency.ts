import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { percentile } from '../lib/stats.ts';
import type { ScenarioResult } from '../scenarios/scenario.ts';
import type { OurServer } from '../servers/ours.ts';
import type { FeedConfig } from './feed-config.ts';
import { type FeedAccount, openSeedDatabase, seedAccounts, shareFolder } from './feed-database.ts';
import { type FeedNodes, startPostgresNodes, startSqliteNode } from './feed-servers.ts';
import { get, latestCursor, post } from './feed-http.ts';

const TARGET_MS = 1000;

/**
 * One change seen by every waiter: each member's 25 places on `waitOn` filled with
 * `GET /api/changes?cursor=…&wait=60` plus one request more, which the node refuses (429)
 * once the 25 are held, so the change is made only when all of them are waiting; then the
 * owner makes a folder in the shared folder through `changeOn`. Answers each waiter's time
 * from just before the folder's request was sent to its answer's last byte.
 */
async function oneWake(
  config: FeedConfig,
  waitOn: OurServer,
  changeOn: OurServer,
  owner: FeedAccount,
  sharedFolderId: string,
  members: FeedAccount[],
  round: number,
): Promise<number[]> {
  const cursors = await Promise.all(members.map((member) => latestCursor(waitOn.url, member)));
  const waits = members.map((member, index) =>
    Array.from({ length: config.listenersPerAccount + 1 }, () =>
      get(`${waitOn.url}/api/changes?cursor=${cursors[index]}&wait=60`, member.token),
    ),
  );
  const refused = await Promise.all(waits.map((own) => Promise.race(own)));
  const notRefused = refused.find((answer) => answer.status !== 429);
  if (notRefused) throw new Error(`a waiter was answered ${notRefused.status} before any change: ${notRefused.text.slice(0, 200)}`);

  const sent = performance.now();
  const made = await post(`${changeOn.url}/api/user/folders`, owner.token, { name: `wake-${round}`, parentId: sharedFolderId });
  if (made.status !== 201) throw new Error(`making the folder answered ${made.status}: ${made.text.slice(0, 200)}`);
  const folderId = (JSON.parse(made.text) as { folder: { id: string } }).folder.id;

  const latencies: number[] = [];
  for (const [index, own] of waits.entries()) {
    for (const answer of await Promise.all(own)) {
      if (answer === refused[index]) continue;
      if (answer.status !== 200) throw new Error(`a waiter was answered ${answer.status}: ${answer.text.slice(0, 200)}`);
      const { changes } = JSON.parse(answer.text) as { changes: Array<{ id: string; op: string }> };
      if (!changes.some((change) => change.id === folderId && change.op === 'created'))
        throw new Error(`a waiter was answered without the new folder: ${answer.text.slice(0, 300)}`);
      latencies.push(answer.at - sent);
    }
  }
  return latencies;
}

async function wakeScenario(
  config: FeedConfig,
  setup: FeedNodes,
  id: string,
  title: string,
  where: string,
  log: (message: string) => void,
): Promise<ScenarioResult> {
  const waitOn = setup.nodes.at(-1)!;
  const changeOn = setup.nodes[0]!;
  const db = await openSeedDatabase(setup.database);
  let owner: FeedAccount;
  let members: FeedAccount[];
  try {
    [owner] = (await seedAccounts(db, setup.jwtSecret, 1, 'owner')) as [FeedAccount];
    members = await seedAccounts(db, setup.jwtSecret, config.wakeAccounts, 'member');
  } finally {
    await db.close();
  }
  const made = await post(`${changeOn.url}/api/user/folders`, owner.token, { name: 'Team', parentId: null });
  if (made.status !== 201) throw new Error(`making the shared folder answered ${made.status}: ${made.text.slice(0, 200)}`);
  const sharedFolderId = (JSON.parse(made.text) as { folder: { id: string } }).folder.id;
  const shares = await openSeedDatabase(setup.database);
  try {
    await shareFolder(shares, owner.userId, sharedFolderId, members);
  } finally {
    await shares.close();
  }

  const waiters = config.wakeAccounts * config.listenersPerAccount;
  const samples: number[] = [];
  const loads: string[] = [];
  for (let round = 1; round <= config.wakeRounds; round++) {
    loads.push(os.loadavg()[0]!.toFixed(1));
    log(`  ${where}: round ${round} of ${config.wakeRounds}, ${waiters} waiters`);
    try {
      samples.push(...(await oneWake(config, waitOn, changeOn, owner, sharedFolderId, members, round)));
    } catch (error) {
      throw new Error(`${(error as Error).message}\nthe waiters' node logged:\n${waitOn.output().slice(-3000)}`);
    }
  }
  const p99 = percentile(samples, 99);
  return {
    id,
    title,
    compares: 'p99Ms',
    figures: [
      {
        server: 'ours',
        status: 'measured',
        samples,
        p50Ms: percentile(samples, 50),
        p99Ms: p99,
        note: `max ${Math.max(...samples).toFixed(0)} ms`,
      },
    ],
    notes: [
      `${waiters} waiting requests (${config.wakeAccounts} accounts × ${config.listenersPerAccount}, each a member of one privately shared folder) on ${where}; ${config.wakeRounds} change(s), each a folder made in it by the owner; time from just before the folder's request is sent to each answer's last byte (the commit, the wake-up and the reading of every answer by this one client process). Load average at each round: ${loads.join(', ')}.`,
    ],
    targets: [
      {
        description: `Change feed: ${waiters} waiters, ${where}, p99 from the change to each answer < ${TARGET_MS} ms`,
        measured: `${p99.toFixed(0)} ms`,
        met: p99 < TARGET_MS,
      },
    ],
  };
}

/** Wake latency on one node: the default embedded setup, SQLite, in-process wake-ups. */
export async function changeWake(
  config: FeedConfig,
  repoRoot: string,
  root: string,
  log: (message: string) => void,
): Promise<ScenarioResult> {
  const setup = await startSqliteNode(repoRoot, path.join(root, 'change-wake'));
  try {
    return await wakeScenario(config, setup, 'change-wake', 'Change feed wake-up, one node (SQLite)', 'one node (SQLite)', log);
  } finally {
    await setup.stop();
  }
}

/** Wake latency across nodes: waiters on node B, the change committed through node A, PostgreSQL's LISTEN/NOTIFY between them. */
export async function changeWakeTwoNodes(
  config: FeedConfig,
  repoRoot: string,
  root: string,
  log: (message: string) => void,
): Promise<ScenarioResult> {
  const setup = await startPostgresNodes(repoRoot, path.join(root, 'change-wake-two-nodes'), config.postgresAdminUrl, 2);
  try {
    return await wakeScenario(
      config,
      setup,
      'change-wake-two-nodes',
      'Change feed wake-up across two nodes (PostgreSQL)',
      'node B, the change made through node A (PostgreSQL)',
      log,
    );
  } finally {
    await setup.stop();
  }
}
