import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../bin/cloudvault.mjs', import.meta.url));
/** A pass that runs longer than this is killed and counted as hung: --once must end. */
const PASS_LIMIT_MS = 90_000;

/** How one run of the command ended. */
export interface CommandRun {
  /** The exit code; null when a signal ended it. */
  code: number | null;
  /** The test killed it (SIGKILL) on purpose, after `killAfterMs`. */
  killed: boolean;
  /** It ran past PASS_LIMIT_MS and was killed. */
  hung: boolean;
  output: string;
  ms: number;
}

/** Runs `node CLI ARGS` as its own process; SIGKILLs it after `killAfterMs` when given. */
export function runCommand(cli: string, args: string[], killAfterMs?: number): Promise<CommandRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let killed = false;
  let hung = false;
  const killTimer = killAfterMs === undefined ? undefined : setTimeout(() => ((killed = true), child.kill('SIGKILL')), killAfterMs);
  const hangTimer = setTimeout(() => ((hung = true), child.kill('SIGKILL')), PASS_LIMIT_MS);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(killTimer);
      clearTimeout(hangTimer);
      // A process that ended before the kill came was not killed.
      resolve({ code, killed: killed && code === null, hung, output, ms: Math.round(performance.now() - started) });
    });
  });
}

/** One device: a synced folder and the config dir its credential and journal live in. */
export interface SyncClient {
  name: string;
  dir: string;
  configDir: string;
  login(server: string, email: string, appPassword: string): Promise<CommandRun>;
  syncOnce(killAfterMs?: number): Promise<CommandRun>;
}

/** The device `name` syncing `dir`, its state in `configDir`; `cli` is the command's script (apps/sync/bin/cloudvault.mjs unless a test gives a stand-in). */
export function syncClient(name: string, dir: string, configDir: string, cli = CLI): SyncClient {
  return {
    name,
    dir,
    configDir,
    login: (server, email, appPassword) =>
      runCommand(cli, [
        'login',
        '--server',
        server,
        '--email',
        email,
        '--password',
        appPassword,
        '--device',
        name,
        '--config-dir',
        configDir,
      ]),
    syncOnce: (killAfterMs) => runCommand(cli, ['sync', dir, '--once', '--config-dir', configDir], killAfterMs),
  };
}
