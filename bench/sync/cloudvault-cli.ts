import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { captureOutput, readMemory, stopChild } from '../lib/processes.ts';

/**
 * The command as a user runs it from the repository: Node 24 on the bin, which runs the sources (or the bundle once packed).
 * SYNC_CLIENT_BIN runs another copy instead (a changed one, for a before/after in the same minutes).
 */
const BIN = process.env.SYNC_CLIENT_BIN
  ? path.resolve(process.env.SYNC_CLIENT_BIN)
  : fileURLToPath(new URL('../../apps/sync/bin/cloudvault.mjs', import.meta.url));
/** GNU time: its %M is the child's peak resident set, read by the kernel at exit rather than sampled. */
const GNU_TIME = '/usr/bin/time';
/** SYNC_CPU_PROF_DIR=DIR: every client process writes a V8 CPU profile there (`node --cpu-prof`), to see where its time goes. */
const PROFILE = process.env.SYNC_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.SYNC_CPU_PROF_DIR)}`] : [];

export interface CommandRun {
  code: number | null;
  /** Wall time of the whole process: start-up, sign-in exchange, listing, transfers, exit. */
  ms: number;
  /** The client's peak resident set (VmHWM), or null when it could not be read. */
  peakRssBytes: number | null;
  /** The client's user + system CPU seconds (GNU time), or null without it. */
  cpuSeconds: number | null;
  /** The last 64 KiB it printed, standard output and error together. */
  output: string;
}

/** The client's signed-in identity, one per simulated device. */
export interface Device {
  name: string;
  configDir: string;
}

/**
 * Runs `cloudvault ARGS` to its end. The peak RSS comes from GNU time when installed (exact),
 * otherwise from /proc/<pid>/status VmHWM polled every 20 ms (a lifetime peak, so only the
 * last few ms before exit can be missed).
 */
export async function runCloudvault(args: string[], timeoutMs: number, env: NodeJS.ProcessEnv = {}): Promise<CommandRun> {
  const timeDir = existsSync(GNU_TIME) ? await mkdtemp(path.join(os.tmpdir(), 'cloudvault-bench-time-')) : undefined;
  const timeFile = timeDir && path.join(timeDir, 'peak');
  const command = timeFile ? GNU_TIME : process.execPath;
  const node = [...PROFILE, BIN, ...args];
  const commandArgs = timeFile ? ['-f', '%M %U %S', '-o', timeFile, process.execPath, ...node] : node;
  const started = performance.now();
  const child = spawn(command, commandArgs, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = captureOutput(child);
  let polledPeak: number | null = null;
  const poll = timeFile
    ? undefined
    : setInterval(() => {
        void readMemory(child.pid ?? -1).then((memory) => {
          if (memory) polledPeak = Math.max(polledPeak ?? 0, memory.peakBytes);
        });
      }, 20);
  const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode) => resolve(exitCode));
  }).finally(() => {
    clearTimeout(killer);
    clearInterval(poll);
  });
  const ms = performance.now() - started;
  let peakRssBytes: number | null = polledPeak as number | null;
  let cpuSeconds: number | null = null;
  if (timeFile && timeDir) {
    // GNU time writes "Command exited with non-zero status N" before its line when the child failed.
    const [kib, user, system] = ((await readFile(timeFile, 'utf8').catch(() => '')).trim().split('\n').at(-1) ?? '').split(' ').map(Number);
    peakRssBytes = kib !== undefined && Number.isFinite(kib) && kib > 0 ? kib * 1024 : null;
    cpuSeconds = user !== undefined && system !== undefined && Number.isFinite(user + system) ? user + system : null;
    await rm(timeDir, { recursive: true, force: true });
  }
  return { code, ms, peakRssBytes, cpuSeconds, output: output() };
}

/** Throws with the client's own words when a command did not exit 0. */
export function expectSuccess(run: CommandRun, what: string): CommandRun {
  if (run.code !== 0)
    throw new Error(`${what}: cloudvault exited ${run.code} after ${(run.ms / 1000).toFixed(1)} s:\n${run.output.slice(-1500)}`);
  return run;
}

/** Signs a device in with the account password, as a user would (`cloudvault login` with flags). */
export async function login(device: Device, account: { url: string; email: string; password: string }, timeoutMs: number): Promise<void> {
  const args = ['login', '--server', account.url, '--email', account.email, '--password', account.password];
  expectSuccess(
    await runCloudvault([...args, '--device', device.name, '--config-dir', device.configDir], timeoutMs),
    `login of ${device.name}`,
  );
}

/** One `cloudvault sync LOCAL --remote REMOTE --once` pass. */
export function syncOnce(device: Device, localDir: string, remotePath: string, timeoutMs: number): Promise<CommandRun> {
  return runCloudvault(['sync', localDir, '--remote', remotePath, '--once', '--config-dir', device.configDir], timeoutMs);
}

export interface RunningClient {
  pid: number;
  output(): string;
  /** Whether it exited on its own (a crash, or a refusal). */
  exited(): boolean;
  stop(): Promise<void>;
}

/** `cloudvault sync LOCAL --remote REMOTE` left running (continuous mode), stopped by its PID. */
export function startContinuous(device: Device, localDir: string, remotePath: string): RunningClient {
  const child: ChildProcess = spawn(process.execPath, [BIN, 'sync', localDir, '--remote', remotePath, '--config-dir', device.configDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = captureOutput(child);
  return {
    pid: child.pid ?? -1,
    output,
    exited: () => child.exitCode !== null || child.signalCode !== null,
    stop: () => stopChild(child),
  };
}
