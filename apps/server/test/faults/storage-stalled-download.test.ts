import { randomBytes } from 'node:crypto';
import { readdir, readlink } from 'node:fs/promises';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFile, createFolder } from '@cloudvault/test-support/drive';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.ts';
import { waitFor } from '../helpers/wait-for.ts';

/**
 * A client opens a download and stops reading: the server must not hold the file, the
 * transfer memory or the connection for it forever. Real server processes with
 * CLIENT_IDLE_TIMEOUT_SECONDS=2, one sending with the native addon's sendfile and one on
 * the portable paths (CLOUDVAULT_NATIVE=0); their open files are read from /proc.
 */
const MiB = 1024 * 1024;
const IDLE_SECONDS = 2;
/** The idle timeout and the few seconds a loaded machine may add before the cut is seen. */
const RELEASE_BOUND_MS = IDLE_SECONDS * 1000 + 6_000;
/** More than the socket buffers of both ends hold, so the send really stalls. */
const BIG_FILE = 64 * MiB;

/** A download whose client read the answer's head, then nothing more. */
interface StalledReader {
  status: number;
  contentLength: number;
  /** Reads on until the connection ends; answers how many body bytes came in all. */
  readRest(): Promise<number>;
}

async function stalledReader(url: string, path: string, token: string): Promise<StalledReader> {
  const { port } = new URL(url);
  const socket = net.connect({ port: Number(port), host: '127.0.0.1' });
  socket.on('error', () => {});
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n\r\n`);
  let received = Buffer.alloc(0);
  const head = await new Promise<{ text: string; bodyBytes: number }>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      // From here on the client reads nothing: the kernel buffers fill and the server's writes stall.
      socket.pause();
      socket.off('data', onData);
      resolve({ text: received.subarray(0, end).toString('latin1'), bodyBytes: received.length - end - 4 });
    };
    socket.on('data', onData);
    socket.once('close', () => reject(new Error('closed before the answer')));
  });
  const status = Number(head.text.split(' ')[1]);
  const contentLength = Number(/content-length: (\d+)/i.exec(head.text)?.[1] ?? Number.NaN);
  return {
    status,
    contentLength,
    readRest() {
      let bytes = head.bodyBytes;
      return new Promise((resolve) => {
        socket.on('data', (chunk: Buffer) => (bytes += chunk.length));
        socket.once('close', () => resolve(bytes));
        socket.resume();
      });
    },
  };
}

/** How many stored blobs the server process holds open (its DATA_DIR/blobs, temp files aside). */
async function openBlobs(server: ServerProcess): Promise<number> {
  const pid = server.child.pid as number;
  const blobs = `${server.env.DATA_DIR}/blobs/`;
  let count = 0;
  for (const fd of await readdir(`/proc/${pid}/fd`)) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    if (target.startsWith(blobs) && !target.startsWith(`${blobs}.tmp/`)) count += 1;
  }
  return count;
}

function zipOf(server: ServerProcess, token: string, folderId: string) {
  return fetch(`${server.url}/api/user/folders/${folderId}/download`, { headers: { authorization: `Bearer ${token}` } });
}

describe.each([
  { paths: 'sendfile', native: '1' },
  { paths: 'portable', native: '0' },
])('a download whose client stops reading ($paths paths)', ({ native }) => {
  let server: ServerProcess | undefined;
  let token: string;
  let fileId: string;
  let folderId: string;

  beforeAll(async () => {
    // 16 MiB: a zip reserves 13.5, so a second one is refused while the first holds its share.
    server = await startServerProcess({
      CLIENT_IDLE_TIMEOUT_SECONDS: String(IDLE_SECONDS),
      CLOUDVAULT_NATIVE: native,
      TRANSFER_MEMORY_MB: '16',
    });
    ({ token } = await createUser(server));
    folderId = (await createFolder(server, token, 'Big')).id;
    fileId = (await createFile(server, token, randomBytes(BIG_FILE), { name: 'big.bin', folderId })).id;
  });
  afterAll(() => server?.stop());

  it('closes the file and the connection once the client has taken nothing for the idle timeout', async () => {
    const running = server as ServerProcess;
    const reader = await stalledReader(running.url, `/api/files/${fileId}/download`, token);
    expect(reader.status).toBe(200);
    expect(reader.contentLength).toBe(BIG_FILE);
    const started = Date.now();
    expect(await openBlobs(running)).toBeGreaterThan(0);
    await waitFor('the stalled download to close its file', async () => (await openBlobs(running)) === 0, RELEASE_BOUND_MS, 100);
    expect(Date.now() - started).toBeLessThan(RELEASE_BOUND_MS);
    // Cut, not ended as if complete: the client can tell and resume with Range.
    expect(await reader.readRest()).toBeLessThan(BIG_FILE);
    expect((await fetch(`${running.url}/api/health/ready`)).status).toBe(200);
  });

  it("gives a stalled zip's transfer memory back, so the next zip is served", async () => {
    const running = server as ServerProcess;
    const reader = await stalledReader(running.url, `/api/user/folders/${folderId}/download`, token);
    expect(reader.status).toBe(200);
    const refused = await zipOf(running, token, folderId);
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ code: 'SERVER_BUSY' });

    const started = Date.now();
    await waitFor(
      'a zip to be served again',
      async () => {
        const response = await zipOf(running, token, folderId);
        if (response.status !== 200) await response.arrayBuffer();
        else await response.body?.cancel();
        return response.status === 200;
      },
      RELEASE_BOUND_MS,
      250,
    );
    expect(Date.now() - started).toBeLessThan(RELEASE_BOUND_MS);
    expect(await reader.readRest()).toBeGreaterThan(0);
  });
});
