import net from 'node:net';

/** The final answer to a streamed request, read off the wire. */
export interface StreamedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The body parsed, when the answer says it is JSON. */
  json: { error?: string; code?: string } | undefined;
  /** Body bytes written before the answer came or the connection closed. */
  bytesSent: number;
}

const CHUNK = Buffer.alloc(1024 * 1024, 7);

/**
 * Sends `bodyBytes` bytes as a request body over a plain socket, a MiB at a time, with
 * `Expect: 100-continue`: the body goes only after the server's 100, and the socket is read
 * all along, so an answer given mid-body (a full disk) is seen however much is left unsent.
 * Stops sending once the final answer is in. `head` is the request line and headers,
 * without Content-Length, Expect and the blank line.
 */
export function streamedRequest(options: {
  port: number;
  head: string[];
  bodyBytes: number;
  prefix?: string;
  suffix?: string;
}): Promise<StreamedAnswer> {
  const prefix = Buffer.from(options.prefix ?? '');
  const suffix = Buffer.from(options.suffix ?? '');
  const contentLength = prefix.length + options.bodyBytes + suffix.length;
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port: options.port, host: '127.0.0.1' });
    let received = Buffer.alloc(0);
    let bytesSent = 0;
    let sending = false;
    let final: StreamedAnswer | undefined;
    const finish = () => {
      socket.destroy();
      if (final) resolve(final);
      else reject(new Error(`The connection closed without a final answer after ${bytesSent} body bytes`));
    };
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    const sendBody = async () => {
      const write = (bytes: Buffer) =>
        socket.write(bytes) ? Promise.resolve() : Promise.race([new Promise<void>((done) => socket.once('drain', done)), closed]);
      await write(prefix);
      for (let left = options.bodyBytes; left > 0 && !final && !socket.destroyed; left -= CHUNK.length) {
        const piece = left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left);
        await write(piece);
        bytesSent += piece.length;
      }
      if (!final && !socket.destroyed) socket.write(suffix);
    };
    socket.on('error', () => {});
    socket.on('close', finish);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      for (;;) {
        const headEnd = received.indexOf('\r\n\r\n');
        if (headEnd < 0) return;
        const [statusLine = '', ...lines] = received.subarray(0, headEnd).toString('latin1').split('\r\n');
        const status = Number(statusLine.split(' ')[1]);
        const headers: Record<string, string> = {};
        for (const line of lines) {
          const colon = line.indexOf(':');
          headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
        const length = status < 200 ? 0 : Number(headers['content-length'] ?? 0);
        if (received.length < headEnd + 4 + length) return;
        const body = received.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8');
        received = received.subarray(headEnd + 4 + length);
        if (status === 100) {
          if (!sending) {
            sending = true;
            void sendBody();
          }
          continue;
        }
        const json =
          headers['content-type']?.includes('application/json') && body ? (JSON.parse(body) as StreamedAnswer['json']) : undefined;
        final = { status, headers, body, json, bytesSent };
        return finish();
      }
    });
    socket.once('connect', () => {
      socket.write([...options.head, `Content-Length: ${contentLength}`, 'Expect: 100-continue', '', ''].join('\r\n'));
    });
  });
}
