import { spawn } from 'node:child_process';

/** How much of a tool's error output is kept for the log: enough to read, never unbounded. */
const MAX_STDERR_BYTES = 4096;

export class ToolError extends Error {}

/**
 * Runs an outside program with no shell, no input, its output discarded but for the first
 * few KB of stderr, and killed (SIGKILL, so it cannot ignore it) when it outlives
 * `timeoutMs`. Resolves when it exits 0; rejects with a ToolError otherwise.
 */
export function runTool(command: string, args: readonly string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: timeoutMs, killSignal: 'SIGKILL' });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < MAX_STDERR_BYTES) stderr += chunk.toString('utf8', 0, MAX_STDERR_BYTES - stderr.length);
    });
    child.on('error', (error) => reject(new ToolError(`${command} did not start: ${error.message}`)));
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else if (signal === 'SIGKILL') reject(new ToolError(`${command} stopped after ${timeoutMs} ms`));
      else reject(new ToolError(`${command} exited with ${code ?? signal}: ${stderr.trim().slice(0, 500)}`));
    });
  });
}

/** Whether the program can be run here (it answers `args`, such as a version query, with success). */
export async function toolAvailable(command: string, args: readonly string[]): Promise<boolean> {
  try {
    await runTool(command, args, 10_000);
    return true;
  } catch {
    return false;
  }
}
