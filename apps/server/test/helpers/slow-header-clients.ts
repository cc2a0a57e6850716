import net from 'node:net';

/** Connections that each send a request's headers a byte at a time and never finish them. */
export interface SlowHeaderClients {
  /** How many the server has not closed yet. */
  open(): number;
  /** What the server sent before closing, per closed connection (its 408, or nothing). */
  answers(): string[];
  /** Resolves once the server has closed every one of them. */
  allClosed: Promise<void>;
  /** Stops the trickle and destroys what is left. */
  stop(): void;
}

/**
 * Slowloris: `count` connections to `url`, each sending the start of a request, then one
 * more header byte every `everyMs` (one timer for all of them), never the blank line that
 * ends the headers. A connection counts as closed when the server ends it.
 */
export async function startSlowHeaderClients(url: string, count: number, everyMs = 1_000): Promise<SlowHeaderClients> {
  const { hostname, port } = new URL(url);
  const sockets = new Set<net.Socket>();
  const answers: string[] = [];
  let resolveAllClosed: () => void = () => {};
  const allClosed = new Promise<void>((resolve) => {
    resolveAllClosed = resolve;
  });
  const connectOne = () =>
    new Promise<void>((resolve, reject) => {
      const socket = net.connect({ host: hostname, port: Number(port) });
      let received = '';
      socket.setNoDelay(true);
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
      });
      socket.once('connect', () => {
        sockets.add(socket);
        socket.write(`GET /api/health HTTP/1.1\r\nHost: ${hostname}\r\nX-Slow: `);
        resolve();
      });
      socket.on('error', () => {});
      socket.once('close', () => {
        if (!sockets.delete(socket)) return reject(new Error('a slow client could not connect'));
        answers.push(received);
        if (sockets.size === 0) resolveAllClosed();
      });
    });
  // In batches, so the burst stays within the server's listen backlog.
  for (let opened = 0; opened < count; opened += 100) {
    await Promise.all(Array.from({ length: Math.min(100, count - opened) }, connectOne));
  }
  const trickle = setInterval(() => {
    for (const socket of sockets) socket.write('a');
  }, everyMs);
  void allClosed.then(() => clearInterval(trickle));
  return {
    open: () => sockets.size,
    answers: () => answers,
    allClosed,
    stop() {
      clearInterval(trickle);
      for (const socket of sockets) socket.destroy();
    },
  };
}
