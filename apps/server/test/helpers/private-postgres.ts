import { execFile } from 'node:child_process';
import { chown, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.ts';

const run = promisify(execFile);

/**
 * A PostgreSQL server of a test's own (initdb into a temp dir, on a free port), so a fault
 * test can stop and start it without touching the PostgreSQL other tests share.
 */
export interface PrivatePostgres {
  /** The `postgres` database, trust auth: pass it where an admin URL is wanted. */
  url: string;
  port: number;
  start(): Promise<void>;
  /** `fast` closes sessions cleanly; `immediate` drops them as a crash would. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Stops the server if it runs and removes its files. */
  destroy(): Promise<void>;
}

async function postgresBin(): Promise<string> {
  const versions = (await readdir('/usr/lib/postgresql')).sort((a, b) => Number(b) - Number(a));
  if (!versions[0]) throw new Error('No PostgreSQL under /usr/lib/postgresql');
  return `/usr/lib/postgresql/${versions[0]}/bin`;
}

/** initdb refuses root, so the cluster belongs to the `postgres` user when the tests run as root. */
function asPostgres(command: string, args: string[]): Promise<{ stdout: string }> {
  const asRoot = process.getuid?.() === 0;
  return asRoot ? run('runuser', ['-u', 'postgres', '--', command, ...args]) : run(command, args);
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = await postgresBin();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-pg-'));
  if (process.getuid?.() === 0) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: group } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(group.trim()));
  }
  const dataDir = path.join(dir, 'data');
  const port = await freePort();
  await asPostgres(`${bin}/initdb`, ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '--no-instructions']);
  // Durability is not under test: fsync off keeps the restarts quick.
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  const pgCtl = (...args: string[]) => asPostgres(`${bin}/pg_ctl`, ['-D', dataDir, ...args]);
  const running = async () =>
    await pgCtl('status').then(
      () => true,
      () => false,
    );
  const postgres: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start: async () => {
      await pgCtl('start', '-w', '-t', '30', '-o', serverOptions, '-l', path.join(dir, 'server.log'));
    },
    stop: async (mode = 'fast') => {
      await pgCtl('stop', '-w', '-m', mode);
    },
    destroy: async () => {
      if (await running()) await pgCtl('stop', '-w', '-m', 'immediate');
      await rm(dir, { recursive: true, force: true });
    },
  };
  try {
    await postgres.start();
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return postgres;
}
