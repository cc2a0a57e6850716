import net from 'node:net';

/** A TCP proxy in front of a server that cuts each connection after a random number of bytes. */
export interface CuttingProxy {
  origin: string;
  /** How many connections it cut. */
  cuts(): number;
  close(): Promise<void>;
}

/**
 * Forwards 127.0.0.1 connections to `target` and destroys both sides of each once the
 * client has sent between `minBytes` and `maxBytes` (drawn per connection): a network that
 * drops uploads mid-request, as mobile links and restarting balancers do.
 */
export async function startCuttingProxy(target: string, options: { minBytes: number; maxBytes: number }): Promise<CuttingProxy> {
  const { hostname, port } = new URL(target);
  let cuts = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    const limit = options.minBytes + Math.floor(Math.random() * (options.maxBytes - options.minBytes));
    let sent = 0;
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk: Buffer) => {
      sent += chunk.length;
      if (sent > limit) {
        // Part of this chunk gets through, as a link that dies mid-packet leaves it.
        upstream.write(chunk.subarray(0, chunk.length - (sent - limit)));
        cuts += 1;
        return cut();
      }
      if (!upstream.write(chunk)) client.pause();
    });
    upstream.on('drain', () => client.resume());
    upstream.pipe(client);
    client.on('error', cut);
    upstream.on('error', cut);
    client.on('close', () => {
      upstream.destroy();
      sockets.delete(client);
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
    cuts: () => cuts,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
