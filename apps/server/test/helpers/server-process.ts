import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.ts';
import { createTestDatabase } from './test-database.ts';

const root = fileURLToPath(new URL('../../../..', import.meta.url));
/**
 * The bundle `npm start` runs (server-bundle-setup.mjs builds it before the run). Through tsx
 * each start compiled the server's modules anew: 11 s against 2-6 s to ready on the loaded
 * two-core machine, and the faults start a process some fifty times (kills and restarts).
 */
const SERVER_BUNDLE = path.join(root, 'apps/server/dist/main.mjs');

/** The real server process (the bundle of apps/server/src/main.ts), with its own port, DATA_DIR and database. */
export interface ServerProcess {
  url: string;
  /** What the process was started with, for a tool run against the same data (npm run db:check). */
  env: Record<string, string>;
  child: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** Resolves once the output matches. */
  waitForOutput(pattern: RegExp): Promise<void>;
  /** The exit code once the process has exited (null when a signal ended it). */
  exited: Promise<number | null>;
  /** Kills the process if it still runs and removes its data. */
  stop(): Promise<void>;
}

/** Runs the server as a process of its own: one node that signals reach. */
export function spawnServer(env: Record<string, string>): {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  outputChanged(listener: () => void): void;
} {
  let output = '';
  const listeners = new Set<() => void>();
  const child = spawn(process.execPath, ['--enable-source-maps', SERVER_BUNDLE], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited, outputChanged: (listener) => listeners.add(listener) };
}

export async function startServerProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-process-'));
  const database = await createTestDatabase({ migratedInto: dataDir });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const processEnv = {
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    SINGLE_NODE: '1',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...env,
  };
  const { child, output, exited, outputChanged } = spawnServer(processEnv);
  const waitForOutput = (pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (pattern.test(output())) resolve();
        else if (child.exitCode !== null) reject(new Error(`The server exited before printing ${pattern}:\n${output()}`));
      };
      outputChanged(check);
      void exited.then(check);
      check();
    });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForOutput(/CloudVault is ready/);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, env: processEnv, child, output, waitForOutput, exited, stop };
}
