import { execFile } from 'node:child_process';
import { access } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import { BACKGROUND_JOBS } from '../../src/background-jobs.ts';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import type { Database } from '../../src/db/schema.ts';
import { localBlobPath } from './seeded-tree.ts';
import { spawnServer, startServerProcess } from './server-process.ts';
import { waitFor, withDeadline } from './wait-for.ts';

const root = fileURLToPath(new URL('../../../..', import.meta.url));

/** Where to kill: a fixed delay after the node logged the request, or once `progressed` says the write is under way. */
export type KillPoint = { afterMs: number } | { progressed: () => Promise<boolean> };

/** A request the node was killed during: its status, or `cut` when the kill came first. */
export type Outcome = number | 'cut';

/**
 * A server process that a test SIGKILLs and restarts on the same data (its DATA_DIR and
 * database), with the test's own handle on that database, the storage jobs run in a process
 * of their own, and `npm run db:check` against it.
 */
export interface KillableNode {
  url: string;
  dataDir: string;
  db: Kysely<Database>;
  /** Sends `method path` as the signed-in `token`, then SIGKILLs the node at `point`. */
  killDuring(method: string, path: string, token: string, point: KillPoint, body?: unknown): Promise<Outcome>;
  /** The same data, a new process, as a supervisor restarts a killed node. */
  restart(): Promise<void>;
  /** Runs jobs by name in a process of their own, which the test may kill. */
  runJobs(...names: string[]): { done: Promise<void>; kill(): void; output(): string };
  /** What a restarted deployment does in its first minutes: reservations back, queued blobs deleted. */
  converge(): Promise<void>;
  dbCheck(): Promise<{ status: number; stdout: string }>;
  blobExists(key: string): Promise<boolean>;
  stop(): Promise<void>;
}

/** The log line of a request's arrival (app.ts's request serializer writes method, then url). */
function loggedRequest(method: string, path: string): RegExp {
  return new RegExp(`"method":"${method}","url":"${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`);
}

export async function startKillableNode(env: Record<string, string> = {}): Promise<KillableNode> {
  const server = await startServerProcess(env);
  let node: Pick<ReturnType<typeof spawnServer>, 'child' | 'output' | 'exited'> = server;
  const database: DatabaseHandle = openDatabase({ databaseUrl: server.env.DATABASE_URL, dataDir: server.env.DATA_DIR as string });
  const dataDir = server.env.DATA_DIR as string;

  const printed = (pattern: RegExp, from: number) =>
    withDeadline(
      `the server to print ${pattern}`,
      waitFor(String(pattern), async () => pattern.test(node.output().slice(from)) || node.child.exitCode !== null, 30_000, 5),
      30_000,
    );
  const kill = async () => {
    const running = node;
    if (running.child.exitCode !== null || running.child.signalCode !== null) return;
    running.child.kill('SIGKILL');
    await running.exited;
  };
  const runJobs = (...names: string[]) => {
    let output = '';
    const child = execFile(process.execPath, ['--import', 'tsx', 'apps/server/test/helpers/run-jobs.ts', ...names], {
      cwd: root,
      env: { ...process.env, ...server.env },
    });
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    const done = new Promise<void>((resolve, reject) =>
      child.once('exit', (code, signal) =>
        code === 0 || signal === 'SIGKILL' ? resolve() : reject(new Error(`jobs ${names.join()} exited ${code}: ${output}`)),
      ),
    );
    return { done, kill: () => child.kill('SIGKILL'), output: () => output };
  };

  return {
    url: server.url,
    dataDir,
    db: database.db,
    async killDuring(method, path, token, point, body) {
      const from = node.output().length;
      const headers: Record<string, string> = {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      };
      const answer: Promise<Outcome> = fetch(`${server.url}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(
        async (response) => {
          await response.arrayBuffer();
          return response.status;
        },
        () => 'cut' as const,
      );
      await printed(loggedRequest(method, path), from);
      if ('afterMs' in point) await new Promise((resolve) => setTimeout(resolve, point.afterMs));
      else await waitFor('the write to show progress', async () => (await point.progressed()) || node.child.exitCode !== null, 30_000, 5);
      await kill();
      return answer;
    },
    async restart() {
      await kill();
      node = spawnServer(server.env);
      await printed(/CloudVault is ready/, 0);
    },
    runJobs,
    converge: () => runJobs(BACKGROUND_JOBS.storageReconciler, BACKGROUND_JOBS.blobDeletion).done,
    dbCheck: () =>
      new Promise((resolve) => {
        execFile(
          'npm',
          ['run', '--silent', 'db:check'],
          { cwd: root, env: { ...process.env, DATABASE_URL: '', ...server.env }, encoding: 'utf8' },
          (error, stdout) => {
            resolve({ status: error ? Number(error.code ?? 1) : 0, stdout });
          },
        );
      }),
    blobExists: (key) =>
      access(localBlobPath(dataDir, key)).then(
        () => true,
        () => false,
      ),
    async stop() {
      await database.close();
      await kill();
      await server.stop();
    },
  };
}

/** Where each write is killed: as it starts, a little later, and once its progress shows in the database. */
export function killPoints(progressed: () => Promise<boolean>): [string, KillPoint][] {
  return [
    ['as it starts', { afterMs: 0 }],
    ['after 150 ms', { afterMs: 150 }],
    ['once its progress shows', { progressed }],
  ];
}

/** Rows of `table` that belong to `userId`. */
export async function countOwned(db: Kysely<Database>, table: 'files' | 'file_versions' | 'folders', userId: string): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** `npm run db:check` against the node's data passes, or the test fails naming what was killed. */
export async function expectConsistent(node: KillableNode, what: string): Promise<void> {
  const checked = await node.dbCheck();
  expect(checked.stdout, `db:check after ${what}`).toContain('Storage is consistent');
  expect(checked.status).toBe(0);
}
