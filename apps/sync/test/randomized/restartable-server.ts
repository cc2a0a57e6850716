import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../../server/test/helpers/free-port.ts';
import { spawnServer } from '../../../server/test/helpers/server-process.ts';
import { waitFor } from '../../../server/test/helpers/wait-for.ts';
import { SQLITE_FILE_NAME, createTestDatabase } from '../../../server/test/helpers/test-database.ts';

const PLANS_FILE = fileURLToPath(new URL('../../../server/config/plans.json', import.meta.url));

/** The server process under test: killed with SIGKILL and started again on the same data and port. */
export interface RestartableServer {
  url: string;
  /** The server's SQLite file (read once the server is stopped, for what its Trash and versions hold). */
  databaseFile: string;
  /** SIGKILL, then the same process again on the same DATA_DIR, database and port; resolves once it is ready. */
  restart(): Promise<void>;
  /** How many times it was killed and started again. */
  restarts(): number;
  /** Kills it (SIGKILL) and leaves its data for a look afterwards. */
  kill(): Promise<void>;
}

/**
 * Starts the server bundle on `dataDir` (SQLite, local disk) with the Free plan changed for
 * the test: room for the run's files (10 GB) and versioning as asked, so that replaced
 * contents are kept as versions on some runs and in Trash on the others.
 */
export async function startRestartableServer(dataDir: string, options: { versioning: boolean }): Promise<RestartableServer> {
  const plans = JSON.parse(await readFile(PLANS_FILE, 'utf8')) as {
    id: string;
    storageLimit: number;
    capabilities: { versioning: boolean };
  }[];
  for (const plan of plans.filter((entry) => entry.id === 'FREE')) {
    plan.storageLimit = 10 * 1024 ** 3;
    plan.capabilities.versioning = options.versioning;
  }
  const plansFile = path.join(dataDir, 'plans.json');
  await writeFile(plansFile, JSON.stringify(plans));
  const database = await createTestDatabase({ migratedInto: dataDir });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = {
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    SINGLE_NODE: '1',
    PLANS_FILE: plansFile,
    ...(database.url ? { DATABASE_URL: database.url } : {}),
  };
  let running = await startAndWait(env, url);
  let restarts = 0;
  const kill = async () => {
    if (running.child.exitCode === null && running.child.signalCode === null) {
      running.child.kill('SIGKILL');
      await running.exited;
    }
  };
  return {
    url,
    databaseFile: path.join(dataDir, SQLITE_FILE_NAME),
    restart: async () => {
      await kill();
      restarts += 1;
      running = await startAndWait(env, url);
    },
    restarts: () => restarts,
    kill,
  };
}

/** Spawns the server and waits until it answers its health route. */
async function startAndWait(env: Record<string, string>, url: string): Promise<ReturnType<typeof spawnServer>> {
  const started = spawnServer(env);
  await waitFor('the server to start', async () => {
    if (started.child.exitCode !== null) throw new Error(`the server exited while starting:\n${started.output()}`);
    return (await fetch(`${url}/api/health`)).ok;
  });
  return started;
}
