import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { captureOutput, readMemory, startScriptServer, stopChild } from '../lib/processes.ts';
import type { ScenarioResult } from '../scenarios/scenario.ts';
import type { FeedConfig } from './feed-config.ts';
import { openSeedDatabase, seedAccounts } from './feed-database.ts';
import { latestCursor } from './feed-http.ts';
import { startSqliteNode } from './feed-servers.ts';
import { cpuSeconds } from './process-cpu.ts';

const HOLDER = fileURLToPath(new URL('./stream-holder.ts', import.meta.url));
const BARE = fileURLToPath(new URL('./bare-stream-server.ts', import.meta.url));
const MEMORY_TARGET_MB = 100;
/** "Near zero": a twentieth of one core, keep-alive comments included (every 25 s per stream). */
const CPU_TARGET = 0.05;
const MB = 1e6;

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

interface Held {
  count: number;
  /** The worst holder process's p50 and p99 time to a stream's first bytes. */
  connectP50: number;
  connectP99: number;
  idle: number;
  open: number;
  after: number;
  cpu: number;
  load: number;
}

/**
 * Opens `streams` against `url` from client processes of their own and holds them for the
 * idle window: the server's RSS before, once all are open and at the window's end, and its
 * CPU seconds over the window.
 */
async function holdStreams(
  config: FeedConfig,
  root: string,
  server: { url: string; pid: number },
  streams: Array<{ token: string; cursor: string }>,
  label: string,
  log: (message: string) => void,
): Promise<Held> {
  const holders: Array<ReturnType<typeof spawn>> = [];
  try {
    const idle = (await readMemory(server.pid))!.rssBytes;
    log(`  ${label}: opening ${streams.length} streams from ${config.streamHolders} client processes`);
    const connected = [];
    for (let index = 0; index < config.streamHolders; index++) {
      const specFile = path.join(root, `change-streams-${label.replace(/\W+/g, '-')}-${index}.json`);
      const share = streams.filter((_, position) => position % config.streamHolders === index);
      await writeFile(specFile, JSON.stringify({ url: server.url, streams: share, inFlight: 200 }));
      const holder = spawn(process.execPath, ['--import', 'tsx', HOLDER, specFile], { stdio: ['ignore', 'pipe', 'pipe'] });
      holders.push(holder);
      const output = captureOutput(holder);
      connected.push({ output, opened: holderConnected(output, new Promise((resolve) => holder.once('exit', resolve))) });
    }
    const opened = await Promise.all(connected.map((holder) => holder.opened));
    const count = opened.reduce((sum, holder) => sum + holder.count, 0);
    if (count !== streams.length) throw new Error(`${label}: ${count} of ${streams.length} streams opened`);

    const open = (await readMemory(server.pid))!.rssBytes;
    log(`  ${label}: ${count} streams open; reading the server's CPU for ${config.idleWindowMs / 1000} s`);
    const cpuBefore = await cpuSeconds(server.pid);
    const [load] = os.loadavg() as [number];
    await new Promise((resolve) => setTimeout(resolve, config.idleWindowMs));
    const cpu = (await cpuSeconds(server.pid)) - cpuBefore;
    const after = (await readMemory(server.pid))!.rssBytes;
    const lost = connected
      .map((holder) => holder.output())
      .join('')
      .match(/^lost .*$/gm);
    if (lost) throw new Error(`${label}: ${lost.length} streams ended while idle`);
    return {
      count,
      connectP50: Math.max(...opened.map((holder) => holder.p50)),
      connectP99: Math.max(...opened.map((holder) => holder.p99)),
      idle,
      open,
      after,
      cpu,
      load,
    };
  } finally {
    await Promise.allSettled(holders.map((holder) => stopChild(holder)));
  }
}

const addedMB = (held: Held) => (Math.max(held.open, held.after) - held.idle) / MB;

/**
 * Idle change streams on one node (the embedded setup): `streamAccounts` × 25 streams held
 * open by client processes of their own; the server's RSS above its idle level, and its CPU
 * over `idleWindowMs` with every stream open and nothing changing. The same streams are then
 * held by a bare Node server (bare-stream-server.ts), the ceiling: what the connections cost
 * Node itself.
 */
export async function changeStreams(
  config: FeedConfig,
  repoRoot: string,
  root: string,
  log: (message: string) => void,
): Promise<ScenarioResult> {
  const setup = await startSqliteNode(repoRoot, path.join(root, 'change-streams'));
  const [node] = setup.nodes as [(typeof setup.nodes)[number]];
  let ours: Held;
  let streams: Array<{ token: string; cursor: string }>;
  try {
    const db = await openSeedDatabase(setup.database);
    const accounts = await seedAccounts(db, setup.jwtSecret, config.streamAccounts, 'streams').finally(() => db.close());
    const cursors = await Promise.all(accounts.map((account) => latestCursor(node.url, account)));
    streams = accounts.flatMap((account, index) =>
      Array.from({ length: config.listenersPerAccount }, () => ({ token: account.token, cursor: cursors[index]! })),
    );
    ours = await holdStreams(config, root, node, streams, 'ours', log);
  } finally {
    await setup.stop();
  }
  const bareServer = await startScriptServer(BARE, {});
  let bare: Held;
  try {
    bare = await holdStreams(config, root, bareServer, streams, 'bare node', log);
  } finally {
    await bareServer.stop();
  }

  const count = ours.count;
  const coreShare = (held: Held) => held.cpu / (config.idleWindowMs / 1000);
  const memory = (held: Held, name: string) =>
    `${name} ${(held.idle / MB).toFixed(0)} MB idle, ${(held.open / MB).toFixed(0)} MB with every stream open, ${(held.after / MB).toFixed(0)} MB ${config.idleWindowMs / 1000} s later: +${addedMB(held).toFixed(1)} MB, ${((addedMB(held) * 1000) / count).toFixed(1)} kB per stream`;
  const cpu = (held: Held, name: string) =>
    `${name} ${held.cpu.toFixed(2)} s, ${(coreShare(held) * 100).toFixed(1)} % of one core (load average ${held.load.toFixed(1)})`;
  const figure = (server: 'ours' | 'bare node', held: Held) => ({
    server,
    status: 'measured' as const,
    samples: [held.connectP50, held.connectP99],
    p50Ms: held.connectP50,
    p99Ms: held.connectP99,
  });
  return {
    id: 'change-streams',
    title: `Change feed: ${count.toLocaleString('en')} idle streams on one node (SQLite)`,
    compares: 'p99Ms',
    figures: [figure('ours', ours), figure('bare node', bare)],
    notes: [
      `${count} streams (GET /api/changes/stream, bearer header) of ${config.streamAccounts} accounts × ${config.listenersPerAccount}, opened by ${config.streamHolders} client processes (raw node:http, no socket cap, 200 opening at a time) against ours, then the same against a bare Node server holding them (bare-stream-server.ts); the figures are the time to a stream's first bytes (the worst client process's p50 and p99).`,
      `Server RSS: ${memory(ours, 'ours')}; ${memory(bare, 'bare node')}.`,
      `Server CPU over ${config.idleWindowMs / 1000} s with the streams open and nothing changing (keep-alive comments every 25 s per stream included): ${cpu(ours, 'ours')}; ${cpu(bare, 'bare node')}.`,
    ],
    targets: [
      {
        description: `Change feed: ${count} idle streams cost < ${MEMORY_TARGET_MB} MB of RSS above the idle server`,
        measured: `+${addedMB(ours).toFixed(1)} MB (bare Node +${addedMB(bare).toFixed(1)} MB)`,
        met: addedMB(ours) < MEMORY_TARGET_MB,
      },
      {
        description: `Change feed: CPU at rest with ${count} streams open < ${CPU_TARGET * 100} % of one core`,
        measured: `${(coreShare(ours) * 100).toFixed(1)} % (bare Node ${(coreShare(bare) * 100).toFixed(1)} %)`,
        met: coreShare(ours) < CPU_TARGET,
      },
    ],
  };
}
