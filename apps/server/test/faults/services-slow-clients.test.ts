import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFile } from '@cloudvault/test-support/drive';
import { HEADERS_TIMEOUT_MS, HEADERS_TIMEOUT_CHECK_MS } from '../../src/app.ts';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.ts';
import { startSlowHeaderClients } from '../helpers/slow-header-clients.ts';
import { withDeadline } from '../helpers/wait-for.ts';

const SLOW_CLIENTS = 1_000;
/** A request of someone else, while the slow clients trickle, answers within this. */
const SERVED_WITHIN_MS = 2_000;

/** The soft limit of open files this process (and the server it spawns) runs under. */
async function openFilesLimit(): Promise<number> {
  const limits = await readFile('/proc/self/limits', 'utf8');
  const soft = /^Max open files\s+(\S+)/m.exec(limits)?.[1];
  return soft === undefined || soft === 'unlimited' ? Infinity : Number(soft);
}

let server: ServerProcess;
beforeAll(async () => {
  // Each slow client is a descriptor here and one in the server, besides what each already holds.
  expect(await openFilesLimit(), 'ulimit -n leaves room for the slow clients (raise it where this runs)').toBeGreaterThan(
    SLOW_CLIENTS + 500,
  );
  server = await startServerProcess();
});
afterAll(async () => {
  await server?.stop();
});

it(`serves others while ${SLOW_CLIENTS} clients trickle their headers, and closes those after its headers timeout`, async () => {
  const user = await createUser(server);
  const file = await createFile(server, user.token, 'still served', { name: 'kept.txt' });
  const startedAt = performance.now();
  const slow = await startSlowHeaderClients(server.url, SLOW_CLIENTS);
  try {
    expect(slow.open(), 'every slow client connected and is held open').toBe(SLOW_CLIENTS);

    // While they trickle: sign-ins, listings and downloads of someone else, each answered quickly.
    const latencies: number[] = [];
    const timed = async (path: string, init: RequestInit) => {
      const started = performance.now();
      const response = await fetch(`${server.url}${path}`, init);
      await response.arrayBuffer();
      latencies.push(performance.now() - started);
      expect(response.status, `${init.method ?? 'GET'} ${path} while slow clients trickle`).toBe(200);
    };
    const auth = { authorization: `Bearer ${user.token}` };
    for (let round = 0; round < 20; round += 1) {
      await timed('/api/files', { headers: auth });
      await timed(`/api/files/${file.id}/download`, { headers: auth });
      await timed('/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: user.email, password: user.password }),
      });
    }
    const slowest = Math.max(...latencies);
    console.log(`${latencies.length} requests beside ${SLOW_CLIENTS} slow clients: slowest ${Math.round(slowest)} ms`);
    expect(slowest).toBeLessThan(SERVED_WITHIN_MS);
    expect(slow.open(), 'the slow clients are still held while their headers are within the timeout').toBe(SLOW_CLIENTS);

    // The node ends them itself: headers timeout, found at its next connections check.
    const bound = HEADERS_TIMEOUT_MS + HEADERS_TIMEOUT_CHECK_MS + 5_000;
    await withDeadline(`the node to close the ${slow.open()} slow clients left`, slow.allClosed, bound);
    console.log(
      `All ${SLOW_CLIENTS} slow clients closed by the node ${((performance.now() - startedAt) / 1000).toFixed(1)} s after they connected`,
    );
    expect(slow.answers().filter((answer) => answer.startsWith('HTTP/1.1 408')).length, 'each was told 408 before the close').toBe(
      SLOW_CLIENTS,
    );

    // And the node is as it was.
    await timed('/api/files', { headers: auth });
  } finally {
    slow.stop();
  }
});
