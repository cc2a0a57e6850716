import { execFileSync, spawn } from 'node:child_process';

/** Debian's WebDAV clients the tests drive: litmus, rclone, cadaver. */
export type DavClient = 'litmus' | 'rclone' | 'cadaver';

/** Whether the client is on PATH. */
export function davClientInstalled(client: DavClient): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${client}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the tests that need the client are collected: always when it is installed;
 * otherwise skipped with a warning, unless REQUIRE_DAV_CLIENTS=1 (CI), where its tests run
 * and fail on the missing tool instead.
 */
export function davClientTestsRun(client: DavClient): boolean {
  if (davClientInstalled(client)) return true;
  if (process.env.REQUIRE_DAV_CLIENTS === '1') return true;
  console.warn(`SKIPPED: the ${client} tests need it (apt-get install -y ${client}); REQUIRE_DAV_CLIENTS=1 makes this a failure.`);
  return false;
}

/** Throws when the client is missing: under REQUIRE_DAV_CLIENTS=1 that fails its tests. */
export function requireDavClient(client: DavClient): void {
  if (!davClientInstalled(client))
    throw new Error(`${client} is not installed (apt-get install -y ${client}) and REQUIRE_DAV_CLIENTS=1 is set`);
}

/** Runs a command to its end, collecting its output; never rejects on a failing exit code. */
export function runTool(command: string, args: string[], options: { env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 240_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
