import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../apps/server/test/helpers/free-port.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The real server process, as `npm start` runs it, on a free port with its own data. */
export interface AppServer {
  url: string;
  dataDir: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * `host`: the name the browser uses; `localhost` where the page needs a domain (a passkey's
 * RP ID cannot be an IP address) and a secure context without TLS.
 */
export async function startAppServer(env: Record<string, string> = {}, { host = '127.0.0.1' } = {}): Promise<AppServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-e2e-'));
  const port = await freePort();
  const url = `http://${host}:${port}`;
  let output = '';
  // The bundle `npm start` runs (scripts/test.mjs builds it before the browser tests).
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', 'apps/server/dist/main.mjs'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited during start-up:\n${output}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The server did not become healthy within 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    url,
    dataDir,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
