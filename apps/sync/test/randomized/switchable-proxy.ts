import net from 'node:net';
import type { SeededRandom } from './seeded-random.ts';

/** A TCP proxy in front of the server whose cutting can be switched on and off. */
export interface SwitchableProxy {
  origin: string;
  /** On: some connections are cut after a random number of bytes, in either direction. Off: everything passes. */
  setCutting(on: boolean): void;
  cutting(): boolean;
  /** How many connections it cut so far. */
  cuts(): number;
  close(): Promise<void>;
}

/**
 * Forwards 127.0.0.1 connections to `target`. While cutting, a share (`cutShare`) of new
 * connections is destroyed on both sides once `maxBytes` or fewer bytes (drawn per
 * connection, half of them under 16 KiB) have passed, counting what the client sent and what the server answered: a
 * network that drops uploads and downloads mid-transfer. Switched off, connections cut no
 * more, those already open included.
 */
export async function startSwitchableProxy(
  target: string,
  random: SeededRandom,
  options: { cutShare: number; maxBytes: number },
): Promise<SwitchableProxy> {
  const { hostname, port } = new URL(target);
  let cutting = false;
  let cuts = 0;
  const sockets = new Set<net.Socket>();
  const limits = new Map<net.Socket, number>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    // Half the cuts come in the first 16 KiB: most of a pass's requests are small.
    const limit = random.chance(0.5) ? random.int(0, 16 * 1024) : random.int(0, options.maxBytes);
    limits.set(client, cutting && random.chance(options.cutShare) ? limit : Infinity);
    let passed = 0;
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    /** Forwards `chunk` to `to`, or the part of it under the limit and then cuts. */
    const forward = (chunk: Buffer, from: net.Socket, to: net.Socket) => {
      const limit = cutting ? (limits.get(client) ?? Infinity) : Infinity;
      passed += chunk.length;
      if (passed > limit) {
        // Part of this chunk gets through, as a link that dies mid-packet leaves it.
        to.write(chunk.subarray(0, Math.max(0, chunk.length - (passed - limit))));
        cuts += 1;
        return cut();
      }
      if (!to.write(chunk)) from.pause();
    };
    client.on('data', (chunk: Buffer) => forward(chunk, client, upstream));
    upstream.on('data', (chunk: Buffer) => forward(chunk, upstream, client));
    upstream.on('drain', () => client.resume());
    client.on('drain', () => upstream.resume());
    client.on('error', cut);
    upstream.on('error', cut);
    client.on('close', () => {
      upstream.destroy();
      sockets.delete(client);
      limits.delete(client);
    });
    upstream.on('close', () => {
      client.destroy();
      sockets.delete(upstream);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: proxyPort } = server.address() as net.AddressInfo;
  return {
    origin: `http://127.0.0.1:${proxyPort}`,
    setCutting: (on) => {
      cutting = on;
    },
    cutting: () => cutting,
    cuts: () => cuts,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
