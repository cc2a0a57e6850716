import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { captureOutput, readMemory, stopChild } from '../lib/processes.ts';
import type { ScenarioResult } from '../scenarios/scenario.ts';
import type { FeedConfig } from './feed-config.ts';
import { openSeedDatabase, seedAccounts } from './feed-database.ts';
import { latestCursor } from './feed-http.ts';
import { startSqliteNode } from './feed-servers.ts';

const HOLDER = fileURLToPath(new URL('./stream-holder.ts', import.meta.url));
const MEMORY_TARGET_MB = 100;
/** "Near zero": a twentieth of one core, keep-alive comments included (every 25 s per stream). */
const CPU_TARGET = 0.05;
/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in these. */
const CLOCK_TICKS = 100;
const MB = 1e6;

/** User plus system CPU seconds of a process so far (proc(5): fields 14 and 15 of /proc/<pid>/stat). */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** A holder process's first line: how many streams it opened and how long they took, or why it failed. */
async function holderConnected(output: () => string, exited: Promise<unknown>): Promise<{ count: number; p50: number; p99: number }> {
  let gone = false;
  void exited.then(() => (gone = true));
  for (;;) {
    const line = output()
      .split('\n')
      .find((candidate) => candidate.startsWith('connected ') || candidate.startsWith('failed'));
    if (line?.startsWith('connected ')) {
      const [, count, p50, p99] = line.split(' ').map(Number) as [number, number, number, number];
      return { count, p50, p99 };
    }
    if (line || gone) throw new Error(`a stream holder failed: ${output().slice(-1000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Idle change streams on one node (the embedded setup): `streamAccounts` × 25 streams held
 * open by client processes of their own; the server's RSS above its idle level, and its CPU
 * over `idleWindowMs` with every stream open and nothing changing.
 */
export async function changeStreams(
  config: FeedConfig,
  repoRoot: string,
  root: string,
  log: (message: string) => void,
): Promise<ScenarioResult> {
  const setup = await startSqliteNode(repoRoot, path.join(root, 'change-streams'));
  const [node] = setup.nodes as [(typeof setup.nodes)[number]];
  const holders: Array<ReturnType<typeof spawn>> = [];
  try {
    const db = await openSeedDatabase(setup.database);
    const accounts = await seedAccounts(db, setup.jwtSecret, config.streamAccounts, 'streams').finally(() => db.close());
    const cursors = await Promise.all(accounts.map((account) => latestCursor(node.url, account)));
    const streams = accounts.flatMap((account, index) =>
      Array.from({ length: config.listenersPerAccount }, () => ({ token: account.token, cursor: cursors[index]! })),
    );
    const idle = (await readMemory(node.pid))!.rssBytes;

    log(`  opening ${streams.length} streams from ${config.streamHolders} client processes`);
    const connected = [];
    for (let index = 0; index < config.streamHolders; index++) {
      const specFile = path.join(root, `change-streams-${index}.json`);
      const share = streams.filter((_, position) => position % config.streamHolders === index);
      await writeFile(specFile, JSON.stringify({ url: node.url, streams: share, inFlight: 200 }));
      const holder = spawn(process.execPath, ['--import', 'tsx', HOLDER, specFile], { stdio: ['ignore', 'pipe', 'pipe'] });
      holders.push(holder);
      const output = captureOutput(holder);
      connected.push({ output, opened: holderConnected(output, new Promise((resolve) => holder.once('exit', resolve))) });
    }
    const opened = await Promise.all(connected.map((holder) => holder.opened));
    const count = opened.reduce((sum, holder) => sum + holder.count, 0);
    if (count !== streams.length) throw new Error(`${count} of ${streams.length} streams opened`);

    const open = (await readMemory(node.pid))!.rssBytes;
    log(`  ${count} streams open; reading the server's CPU for ${config.idleWindowMs / 1000} s`);
    const cpuBefore = await cpuSeconds(node.pid);
    const [loadBefore] = os.loadavg() as [number];
    await new Promise((resolve) => setTimeout(resolve, config.idleWindowMs));
    const cpu = (await cpuSeconds(node.pid)) - cpuBefore;
    const after = (await readMemory(node.pid))!.rssBytes;
    const lost = connected
      .map((holder) => holder.output())
      .join('')
      .match(/^lost .*$/gm);
    if (lost) throw new Error(`${lost.length} streams ended while idle`);

    const addedMB = (Math.max(open, after) - idle) / MB;
    const coreShare = cpu / (config.idleWindowMs / 1000);
    const connectP99 = Math.max(...opened.map((holder) => holder.p99));
    return {
      id: 'change-streams',
      title: `Change feed: ${count.toLocaleString('en')} idle streams on one node (SQLite)`,
      compares: 'p99Ms',
      figures: [
        {
          server: 'ours',
          status: 'measured',
          samples: opened.map((holder) => holder.p50),
          p50Ms: Math.max(...opened.map((holder) => holder.p50)),
          p99Ms: connectP99,
          note: 'time to open a stream (its first bytes), the worst holder process',
        },
      ],
      notes: [
        `${count} streams (GET /api/changes/stream, bearer header) of ${config.streamAccounts} accounts × ${config.listenersPerAccount}, opened by ${config.streamHolders} client processes (raw node:http, no socket cap, 200 opening at a time); the figure is the time to each stream's first bytes.`,
        `Server RSS: ${(idle / MB).toFixed(0)} MB idle (accounts seeded, their cursors read), ${(open / MB).toFixed(0)} MB with every stream open, ${(after / MB).toFixed(0)} MB ${config.idleWindowMs / 1000} s later: +${addedMB.toFixed(1)} MB, ${((addedMB * 1000) / count).toFixed(1)} kB per stream.`,
        `Server CPU with the streams open and nothing changing: ${cpu.toFixed(2)} s over ${config.idleWindowMs / 1000} s, ${(coreShare * 100).toFixed(1)} % of one core (keep-alive comments every 25 s per stream included); load average ${loadBefore.toFixed(1)} before.`,
      ],
      targets: [
        {
          description: `Change feed: ${count} idle streams cost < ${MEMORY_TARGET_MB} MB of RSS above the idle server`,
          measured: `+${addedMB.toFixed(1)} MB`,
          met: addedMB < MEMORY_TARGET_MB,
        },
        {
          description: `Change feed: CPU at rest with ${count} streams open < ${CPU_TARGET * 100} % of one core`,
          measured: `${(coreShare * 100).toFixed(1)} %`,
          met: coreShare < CPU_TARGET,
        },
      ],
    };
  } finally {
    await Promise.allSettled(holders.map((holder) => stopChild(holder)));
    await setup.stop();
  }
}
