import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { freePort } from '../../apps/server/test/helpers/free-port.ts';

/** Keeps the last `limit` characters a child printed, to show when it fails. */
export function captureOutput(child: ChildProcess, limit = 64 * 1024): () => string {
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-limit);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => output;
}

/** Polls `url` until it answers below 500, or fails when the child exits or time runs out. */
export async function waitUntilServing(url: string, child: ChildProcess, output: () => string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${url}: the process exited during start-up:\n${output()}`);
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${url}: not serving after ${timeoutMs / 1000} s:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Stops one child by its PID: `signal` first, SIGKILL when it has not exited within 5 s. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

export interface Memory {
  /** Resident set now (VmRSS). */
  rssBytes: number;
  /** Peak resident set over the process's lifetime (VmHWM). */
  peakBytes: number;
}

/** Reads VmRSS and VmHWM of one process; null when it is gone. */
export async function readMemory(pid: number): Promise<Memory | null> {
  let status: string;
  try {
    status = await readFile(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rssBytes: kib('VmRSS'), peakBytes: kib('VmHWM') };
}

/** Adds up the memory of several processes (nginx's workers). */
export async function readMemorySum(pids: number[]): Promise<Memory | null> {
  const all = await Promise.all(pids.map(readMemory));
  const alive = all.filter((memory): memory is Memory => memory !== null);
  if (alive.length === 0) return null;
  return {
    rssBytes: alive.reduce((sum, memory) => sum + memory.rssBytes, 0),
    peakBytes: alive.reduce((sum, memory) => sum + memory.peakBytes, 0),
  };
}

/** PIDs whose parent is `pid`, from /proc (this kernel has no /proc/<pid>/task/<pid>/children). */
export async function childPids(pid: number): Promise<number[]> {
  const children: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = await readFile(`/proc/${entry}/status`, 'utf8');
      if (/^PPid:\s+(\d+)$/m.exec(status)?.[1] === String(pid)) children.push(Number(entry));
    } catch {
      // Exited while we looked.
    }
  }
  return children;
}

/**
 * Flushes dirty pages to disk, so a transfer never pays for the write-back the previous
 * one left behind (nginx and the bare server return before their bytes reach the disk).
 */
export async function syncDisks(): Promise<void> {
  await promisify(execFile)('sync');
}

export interface ScriptServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * A TypeScript server script in a process of its own, under the same tsx loader as the
 * rest of the bench, told its port in PORT; resolved once `${url}/` answers.
 */
export async function startScriptServer(script: string, env: Record<string, string>): Promise<ScriptServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = captureOutput(child);
  const stop = () => stopChild(child);
  try {
    await waitUntilServing(`${url}/`, child, output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, pid: child.pid ?? -1, stop };
}
