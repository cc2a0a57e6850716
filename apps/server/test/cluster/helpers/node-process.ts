import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '../../helpers/wait-for.ts';

const root = fileURLToPath(new URL('../../../../..', import.meta.url));
/** The bundle `npm start` runs, built by scripts/ensure-builds.mjs before the suite. */
export const SERVER_BUNDLE = path.join(root, 'apps/server/dist/main.mjs');

/** One CloudVault server process of the cluster, on its own port, started and stopped by the test. */
export interface ClusterNode {
  readonly name: string;
  /** The node's own address, bypassing the balancer (health checks and diagnostics only). */
  readonly url: string;
  /** Everything the process wrote, across restarts. */
  output(): string;
  /** What the process wrote since it was last started. */
  outputSinceStart(): string;
  /** Starts the process (again) and resolves once its /api/health answers 200. */
  start(): Promise<void>;
  /** A crash: SIGKILL, no shutdown hooks. Resolves once the process is gone. */
  kill(): Promise<void>;
  /** A clean stop: SIGTERM, then SIGKILL if it does not exit within 10 s. */
  stop(): Promise<void>;
  /** Stops the node for good and removes its DATA_DIR. */
  dispose(): Promise<void>;
}

export async function createClusterNode(name: string, port: number, env: Record<string, string>): Promise<ClusterNode> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `cloudvault-cluster-${name}-`));
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let output = '';
  let startedAt = 0;

  const running = () => child !== undefined && child.exitCode === null && child.signalCode === null;

  async function signal(how: NodeJS.Signals, graceMs: number) {
    if (!child || !running()) return;
    child.kill(how);
    const gone = await Promise.race([
      exited.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), graceMs)),
    ]);
    if (!gone && running()) {
      child.kill('SIGKILL');
      await exited;
    }
  }

  return {
    name,
    url,
    output: () => output,
    outputSinceStart: () => output.slice(startedAt),
    async start() {
      if (running()) throw new Error(`node ${name} is already running`);
      startedAt = output.length;
      const started = spawn(process.execPath, ['--enable-source-maps', SERVER_BUNDLE], {
        cwd: root,
        env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = started;
      started.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      started.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      exited = new Promise((resolve) => started.once('exit', () => resolve()));
      await waitFor(`node ${name} to answer /api/health`, async () => {
        if (started.exitCode !== null) throw new Error(`node ${name} exited during start-up:\n${output}`);
        return (await fetch(`${url}/api/health`)).ok;
      }).catch(async (error: unknown) => {
        await signal('SIGKILL', 5_000);
        throw new Error(`${String(error)}\n${output}`);
      });
    },
    kill: () => signal('SIGKILL', 10_000),
    stop: () => signal('SIGTERM', 10_000),
    async dispose() {
      await signal('SIGTERM', 10_000);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
