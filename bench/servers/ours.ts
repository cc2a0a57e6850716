import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { freePort } from '../../apps/server/test/helpers/free-port.ts';
import { captureOutput, readMemory, stopChild, waitUntilServing } from '../lib/processes.ts';
import { ensureServerBuild, ensureWebBuild, SERVER_BUNDLE, SERVER_NODE_FLAGS } from '../../scripts/ensure-builds.mjs';
import type { BenchServer } from './server.ts';

export interface OurServer extends BenchServer {
  name: 'ours';
  dataDir: string;
  /** The serving process (for /proc/<pid>/clear_refs, which resets its peak). */
  pid: number;
  /** What the server printed (LOG_LEVEL=warn: warnings and errors only). */
  output(): string;
  /** Starts VmHWM again from the current RSS, so the next peak read is that of what follows. */
  resetPeak(): Promise<void>;
}

/**
 * A plans file where FREE has 1 TB, no per-file limit and no concurrency limit: the
 * benchmark measures the upload path, not the plan checks refusing it.
 */
async function writeLimitlessPlans(repoRoot: string, target: string): Promise<void> {
  const plans = JSON.parse(await readFile(path.join(repoRoot, 'apps/server/config/plans.json'), 'utf8')) as Record<string, unknown>[];
  const free = plans.find((plan) => plan.id === 'FREE');
  if (!free) throw new Error('apps/server/config/plans.json has no FREE plan');
  Object.assign(free, { storageLimit: 1024 ** 4, maxFileSize: null, maxConcurrentUploads: null });
  await writeFile(target, JSON.stringify(plans, null, 2));
}

/**
 * The real server as `npm start` runs it: the bundle and the web app, built first if stale. Spawned as
 * node itself, so the child's PID is the process that serves and its VmHWM is ours.
 * The default embedded setup: SQLite and local blobs in a temp DATA_DIR; `extraEnv` changes it
 * (DATABASE_URL for PostgreSQL). `bundle` runs another build of it instead (an older one kept
 * for a before/after comparison, bench/request-cpu.ts), `nodeFlags` other flags of Node's
 * (bench/tus-cpu.ts).
 */
export async function startOurServer(
  repoRoot: string,
  root: string,
  extraEnv: NodeJS.ProcessEnv = {},
  bundle = SERVER_BUNDLE,
  nodeFlags = SERVER_NODE_FLAGS,
): Promise<OurServer> {
  const dataDir = path.join(root, 'ours-data');
  await mkdir(dataDir, { recursive: true });
  const plansFile = path.join(root, 'plans.json');
  await writeLimitlessPlans(repoRoot, plansFile);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    PLANS_FILE: plansFile,
  };
  delete env.DATABASE_URL;
  delete env.STORAGE_DRIVER;
  Object.assign(env, extraEnv);
  await ensureServerBuild();
  // The web app is served from its build (the Lighthouse scenario loads its pages).
  ensureWebBuild();
  const child = spawn(process.execPath, [...nodeFlags, bundle], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = captureOutput(child);
  const server: OurServer = {
    name: 'ours',
    url,
    dataDir,
    pid: child.pid ?? -1,
    output,
    memory: () => readMemory(child.pid ?? -1),
    stop: () => stopChild(child),
    // "5" resets the peak resident set (Linux's proc(5), /proc/pid/clear_refs).
    resetPeak: () => writeFile(`/proc/${child.pid}/clear_refs`, '5'),
  };
  try {
    await waitUntilServing(`${url}/api/health`, child, output);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}
