import { spawn } from 'node:child_process';

/** How much of a tool's output is kept: enough to read, never unbounded. */
const MAX_OUTPUT_BYTES = 4096;

export class ToolError extends Error {}

/**
 * Bounds the kernel holds a tool to (setrlimit, through util-linux's prlimit): past its
 * address space an allocation fails, past its CPU time it is killed. A tool fed a hostile
 * file must not take the machine's memory or a core for longer than this.
 */
export interface ToolLimits {
  /** RLIMIT_AS: everything the process maps, its libraries included. */
  addressSpaceBytes: number;
  /** RLIMIT_CPU, in whole seconds. */
  cpuSeconds: number;
}

export interface ToolRun {
  /** Killed with SIGKILL (which it cannot ignore) past this wall-clock time. */
  timeoutMs: number;
  limits?: ToolLimits;
  /** Variables besides PATH: the server's own environment (its secrets) is never passed on. */
  env?: Record<string, string>;
}

/** The command line that runs `command` under `limits`. */
export function limitedCommand(command: string, args: readonly string[], limits: ToolLimits | undefined): [string, string[]] {
  if (!limits) return [command, [...args]];
  return ['prlimit', [`--as=${Math.floor(limits.addressSpaceBytes)}`, `--cpu=${Math.ceil(limits.cpuSeconds)}`, '--', command, ...args]];
}

function capped(stream: NodeJS.ReadableStream): () => string {
  let text = '';
  stream.on('data', (chunk: Buffer) => {
    if (text.length < MAX_OUTPUT_BYTES) text += chunk.toString('utf8', 0, MAX_OUTPUT_BYTES - text.length);
  });
  return () => text;
}

/**
 * Runs an outside program with no shell, no input and only PATH (and `env`) in its
 * environment, under `limits` when given, killed when it outlives `timeoutMs`. Resolves
 * with the first few KB of its output when it exits 0; rejects with a ToolError otherwise.
 */
export function runTool(command: string, args: readonly string[], run: number | ToolRun): Promise<string> {
  const { timeoutMs, limits, env } = typeof run === 'number' ? { timeoutMs: run } : run;
  const [program, programArgs] = limitedCommand(command, args, limits);
  return new Promise((resolve, reject) => {
    const child = spawn(program, programArgs, {
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    });
    const stdout = capped(child.stdout);
    const stderr = capped(child.stderr);
    child.on('error', (error) => reject(new ToolError(`${program} did not start: ${error.message}`)));
    child.on('close', (code, signal) => {
      if (code === 0) resolve(stdout());
      // Node sent the signal: the wall clock ran out. Any other signal is a limit (or a crash).
      else if (child.killed) reject(new ToolError(`${command} stopped after ${timeoutMs} ms`));
      else if (signal) reject(new ToolError(`${command} was killed by ${signal} (a memory or CPU limit, or a crash)`));
      else reject(new ToolError(`${command} exited with ${code}: ${stderr().trim().slice(0, 500)}`));
    });
  });
}

/** Whether the program can be run here, under `limits` if given (it answers `args`, such as a version query, with success). */
export async function toolAvailable(command: string, args: readonly string[], limits?: ToolLimits): Promise<boolean> {
  try {
    await runTool(command, args, { timeoutMs: 10_000, limits });
    return true;
  } catch {
    return false;
  }
}
