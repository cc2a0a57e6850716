import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, open, readdir, readlink, rm, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DirectSocket, directSocketOf } from './direct-socket.ts';

let dir: string;
let filePath: string;
const fileBytes = randomBytes(3 * 1024 * 1024 + 17);

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-direct-socket-'));
  filePath = path.join(dir, 'blob.bin');
  await writeFile(filePath, fileBytes);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A plain Node server whose handler gets the direct socket after writing its headers. */
async function serve(
  handle: (response: http.ServerResponse, socket: DirectSocket) => Promise<void>,
  headers: http.OutgoingHttpHeaders = {},
  idleTimeoutMs = 0,
) {
  const failures: Error[] = [];
  const server = http.createServer(async (_request, response) => {
    try {
      response.writeHead(200, { 'content-type': 'application/octet-stream', ...headers });
      const socket = await directSocketOf(response);
      if (!socket) throw new Error('no direct socket on a plain TCP connection');
      await handle(response, socket);
      response.end();
    } catch (error) {
      failures.push(error as Error);
      response.destroy();
    }
  });
  server.setTimeout(idleTimeoutMs);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url,
    failures,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('directSocketOf', () => {
  it('sends bytes, a range of an open file and a range of a file by path, in order, with Content-Length', async () => {
    const file = await open(filePath, 'r');
    const head = Buffer.from('head:');
    const expected = Buffer.concat([
      head,
      fileBytes.subarray(10, 1_000_010),
      fileBytes.subarray(2_000_000, 3_000_000),
      Buffer.from(':tail'),
    ]);
    const served = await serve(
      async (response, socket) => {
        await socket.send([head, { fd: file.fd, offset: 10, length: 1_000_000 }, { path: filePath, offset: 2_000_000, length: 1_000_000 }]);
        response.write(':tail');
      },
      { 'content-length': expected.length },
    );
    const response = await fetch(served.url);
    expect(Buffer.from(await response.arrayBuffer()).equals(expected)).toBe(true);
    // The same keep-alive connection serves a second answer after bytes went around Node.
    const again = await fetch(served.url);
    expect(Buffer.from(await again.arrayBuffer()).equals(expected)).toBe(true);
    expect(served.failures).toEqual([]);
    await file.close();
    await served.close();
  });

  it('frames each send as a chunk when the response has no Content-Length', async () => {
    const served = await serve(async (response, socket) => {
      await socket.send([Buffer.from('a'), { path: filePath, offset: 0, length: 1_500_000 }]);
      await socket.send([]);
      await socket.send([{ path: filePath, offset: 1_500_000, length: fileBytes.length - 1_500_000 }, Buffer.from('b')]);
      response.write('end');
    });
    const response = await fetch(served.url);
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.equals(Buffer.concat([Buffer.from('a'), fileBytes, Buffer.from('bend')]))).toBe(true);
    expect(served.failures).toEqual([]);
    await served.close();
  });

  it('sends a run of members, each header then its whole file, framed as one chunk', async () => {
    const small = path.join(dir, 'small.bin');
    await writeFile(small, 'small file');
    const headers = Buffer.from('H1H22H333');
    const run = {
      headers,
      paths: `${filePath}\0\0${small}\0`,
      lengths: Float64Array.from([2, fileBytes.length, 3, 0, 4, 10]),
      length: 9 + fileBytes.length + 10,
    };
    const served = await serve(async (response, socket) => {
      await socket.send([Buffer.from('<'), run, Buffer.from('>')]);
      response.write('end');
    });
    const body = Buffer.from(await (await fetch(served.url)).arrayBuffer());
    expect(body.equals(Buffer.concat([Buffer.from('<H1'), fileBytes, Buffer.from('H22H333small file>end')]))).toBe(true);
    expect(served.failures).toEqual([]);
    await served.close();
  });

  it.each([
    ['header lengths that do not add up to the headers', { lengths: Float64Array.from([2, 1, 2, 0]), length: 5 }],
    ['a file without a path', { paths: '\0\0' }],
    ['fewer paths than members', { paths: `${filePath}\0` }],
    ['a length that is not whole', { lengths: Float64Array.from([2, 0.5, 3, 0]), length: 5.5 }],
    ['a total that is not the sum', { length: 7 }],
    ['lengths that are not a Float64Array', { lengths: [2, 1, 3, 0] }],
  ])('refuses a run of members with %s, before anything is sent', async (_case, change) => {
    const run = { headers: Buffer.from('H1H22'), paths: `${filePath}\0\0`, lengths: Float64Array.from([2, 1, 3, 0]), length: 6, ...change };
    const served = await serve(async (_response, socket) => {
      await socket.send([run as unknown as Buffer]);
    });
    await expect(fetch(served.url).then((response) => response.arrayBuffer())).rejects.toThrow();
    expect(served.failures[0]).toBeInstanceOf(TypeError);
    await served.close();
  });

  it('rejects when a file is missing or shorter than its range, and the client sees a cut body', async () => {
    const served = await serve(async (_response, socket) => {
      await socket.send([{ path: filePath, offset: fileBytes.length - 10, length: 20 }]);
    });
    await expect(fetch(served.url).then((response) => response.arrayBuffer())).rejects.toThrow();
    expect(served.failures[0]).toMatchObject({ code: 'ESHORTFILE' });

    const missing = await serve(async (_response, socket) => {
      await socket.send([{ path: path.join(dir, 'missing.bin'), offset: 0, length: 1 }]);
    });
    await expect(fetch(missing.url).then((response) => response.arrayBuffer())).rejects.toThrow();
    expect(missing.failures[0]?.message).toMatch(/open failed/);
    await served.close();
    await missing.close();
  });

  it('rejects as a premature close when the client leaves midway', async () => {
    const big = path.join(dir, 'big.bin');
    await writeFile(big, randomBytes(64 * 1024 * 1024));
    const served = await serve(async (_response, socket) => {
      await socket.send([{ path: big, offset: 0, length: 64 * 1024 * 1024 }]);
    });
    await new Promise<void>((resolve, reject) => {
      const request = http.get(served.url, (response) => {
        response.once('data', () => {
          request.destroy();
          resolve();
        });
      });
      request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
    });
    await expect.poll(() => served.failures.length, { timeout: 10_000 }).toBe(1);
    expect(served.failures[0]).toMatchObject({ code: 'ERR_STREAM_PREMATURE_CLOSE' });
    await served.close();
  });

  it("keeps a slow but steady client past the server's idle timeout, which Node alone would apply to a send it cannot see", async () => {
    // Larger than what the two sockets' buffers take at once, so the send lasts as long as the reading.
    const large = path.join(dir, 'large.bin');
    const largeBytes = randomBytes(24 * 1024 * 1024);
    await writeFile(large, largeBytes);
    const served = await serve(
      async (_response, socket) => {
        await socket.send([{ path: large, offset: 0, length: largeBytes.length }]);
      },
      { 'content-length': largeBytes.length },
      400,
    );
    const received = await new Promise<Buffer>((resolve, reject) => {
      http
        .get(served.url, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            // The whole body takes well over the idle timeout; no pause comes near it.
            response.pause();
            setTimeout(() => response.resume(), 5);
          });
          response.on('close', () => (response.complete ? resolve(Buffer.concat(chunks)) : reject(new Error('the body was cut short'))));
        })
        .on('error', reject);
    });
    expect(received.equals(largeBytes)).toBe(true);
    expect(served.failures).toEqual([]);
    await served.close();
  });

  it('refuses segments that are not bytes or whole file ranges, before anything is sent', async () => {
    const served = await serve(async (_response, socket) => {
      await socket.send([{ path: filePath, offset: -1, length: 1 }]);
    });
    await expect(fetch(served.url).then((response) => response.arrayBuffer())).rejects.toThrow();
    expect(served.failures[0]).toBeInstanceOf(TypeError);
    // A descriptor that is not open cannot be duplicated: refused with the system's reason.
    const notOpen = await serve(async (_response, socket) => {
      await socket.send([{ fd: 1_000_000, offset: 0, length: 1 }]);
    });
    await expect(fetch(notOpen.url).then((response) => response.arrayBuffer())).rejects.toThrow();
    expect(notOpen.failures[0]?.message).toBe('Bad file descriptor');
    await served.close();
    await notOpen.close();
  });

  it('sends from its own duplicate of a file descriptor: closing the file midway changes no byte and leaves no descriptor', async () => {
    // Larger than the two sockets' buffers take, so the send is still going when the file is closed.
    const sentPath = path.join(dir, 'sent.bin');
    const sentBytes = randomBytes(48 * 1024 * 1024);
    await writeFile(sentPath, sentBytes);
    const intruderPath = path.join(dir, 'intruder.bin');
    await writeFile(intruderPath, Buffer.alloc(sentBytes.length, 0x58));
    let startReading!: () => void;
    const closed = new Promise<void>((resolve) => (startReading = resolve));
    let handled!: () => void;
    const handlerDone = new Promise<void>((resolve) => (handled = resolve));
    const served = await serve(
      async (_response, socket) => {
        const file = await open(sentPath, 'r');
        const sending = socket.send([{ fd: file.fd, offset: 0, length: sentBytes.length }]);
        await file.close();
        // The number is free again, and the lowest free number is what the next open gets.
        const intruder = await open(intruderPath, 'r');
        startReading();
        try {
          await sending;
        } finally {
          await intruder.close();
          handled();
        }
      },
      { 'content-length': sentBytes.length },
    );
    const received = await new Promise<Buffer>((resolve, reject) => {
      http
        .get(served.url, (response) => {
          response.pause();
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve(Buffer.concat(chunks)));
          response.on('error', reject);
          void closed.then(() => response.resume());
        })
        .on('error', reject);
    });
    expect(received.length).toBe(sentBytes.length);
    expect(received.equals(sentBytes)).toBe(true);
    // The client can hold the last byte before the handler has closed its own files.
    await handlerDone;
    expect(served.failures).toEqual([]);
    await served.close();
    const openFiles = await Promise.all((await readdir('/proc/self/fd')).map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')));
    expect(openFiles.filter((target) => target === sentPath || target === intruderPath)).toEqual([]);
  });
});
