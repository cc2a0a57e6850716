import { randomBytes } from 'node:crypto';
import net from 'node:net';

export type WholeBodyOutcome = { status: number; headers: Record<string, string>; body: any } | { status: 0; error: string };

/** How long a write may wait for the other side to take more bytes before the client gives up. */
const STALL_MS = 30_000;

/** The bytes of a multipart upload of `size` bytes: the request head, the part's head and the closing boundary. */
function multipartUpload(baseUrl: string, token: string, options: { name: string; size: number }, extraHeaders: string[] = []) {
  const { hostname, port } = new URL(baseUrl);
  const boundary = `----cloudvault-${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${options.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const requestHead = Buffer.from(
    [
      'POST /api/files/upload HTTP/1.1',
      `Host: ${hostname}:${port}`,
      `Authorization: Bearer ${token}`,
      `Content-Type: multipart/form-data; boundary=${boundary}`,
      `Content-Length: ${head.length + options.size + tail.length}`,
      ...extraHeaders,
      '',
      '',
    ].join('\r\n'),
  );
  return { host: hostname, port: Number(port), requestHead, head, tail };
}

/**
 * A multipart upload from the simplest kind of client: it sends the request and its whole
 * body first, and only then reads the answer. A server (or proxy) that answers early and
 * then resets the connection while bytes are still arriving destroys that answer in the
 * client's receive buffer, which is what this client detects. Raw TCP, because Node's own
 * HTTP client reads the answer while it is still sending.
 */
export function uploadWholeBodyThenRead(baseUrl: string, token: string, options: { name: string; size: number }): Promise<WholeBodyOutcome> {
  const { host, port, requestHead, head, tail } = multipartUpload(baseUrl, token, options);
  const chunk = Buffer.alloc(256 * 1024, 'x');

  return new Promise((resolve) => {
    const socket = net.createConnection({ host, port });
    // Not one byte of the answer is read before the body is out.
    socket.pause();
    let failed: string | undefined;
    const answer: Buffer[] = [];
    socket.on('data', (data: Buffer) => answer.push(data));
    socket.on('error', (error) => (failed ??= error.message));
    socket.on('close', () => resolve(parseResponse(Buffer.concat(answer)) ?? { status: 0, error: failed ?? 'the connection closed without an answer' }));

    const write = (bytes: Buffer) =>
      new Promise<void>((done, reject) => {
        if (failed || socket.destroyed) return reject(new Error(failed ?? 'the connection is closed'));
        if (socket.write(bytes)) return done();
        const timer = setTimeout(() => reject(new Error(`the body stalled: nothing taken for ${STALL_MS / 1000} s`)), STALL_MS);
        socket.once('drain', () => {
          clearTimeout(timer);
          done();
        });
      });

    socket.once('connect', async () => {
      try {
        await write(requestHead);
        await write(head);
        for (let sent = 0; sent < options.size; sent += chunk.length) await write(chunk.subarray(0, Math.min(chunk.length, options.size - sent)));
        await write(tail);
      } catch (error) {
        failed ??= (error as Error).message;
      }
      socket.resume();
      // One request per connection: the other side may close once it has answered.
      socket.end();
    });
  });
}

/**
 * The same upload from a client that asks first (`Expect: 100-continue`) and sends no byte
 * of the body until told to: answers the first response, `100` when the server wants the body.
 */
export function uploadAskingFirst(baseUrl: string, token: string, options: { name: string; size: number }): Promise<WholeBodyOutcome> {
  const { host, port, requestHead } = multipartUpload(baseUrl, token, options, ['Expect: 100-continue']);
  return new Promise((resolve) => {
    const answer: Buffer[] = [];
    const socket = net.createConnection({ host, port }, () => socket.write(requestHead));
    const settle = (outcome: WholeBodyOutcome) => {
      resolve(outcome);
      socket.destroy();
    };
    socket.setTimeout(STALL_MS, () => settle({ status: 0, error: `no answer within ${STALL_MS / 1000} s` }));
    socket.on('data', (data: Buffer) => {
      answer.push(data);
      const bytes = Buffer.concat(answer);
      if (answerComplete(bytes)) settle(parseResponse(bytes) as WholeBodyOutcome);
    });
    socket.on('error', (error) => settle({ status: 0, error: error.message }));
    socket.on('close', () => settle(parseResponse(Buffer.concat(answer)) ?? { status: 0, error: 'the connection closed without an answer' }));
  });
}

/** Whether `bytes` hold a whole first response: an interim 100, or a head and its Content-Length of body. */
function answerComplete(bytes: Buffer): boolean {
  const headEnd = bytes.indexOf('\r\n\r\n');
  if (headEnd < 0) return false;
  const head = bytes.subarray(0, headEnd).toString('latin1');
  if (/^HTTP\/1\.[01] 100 /.test(head)) return true;
  const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
  return length !== undefined && bytes.length >= headEnd + 4 + Number(length);
}

/** The first HTTP/1.1 response in `bytes` (Content-Length framed, as the API's JSON errors are). */
function parseResponse(bytes: Buffer): WholeBodyOutcome | undefined {
  const headEnd = bytes.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const [statusLine = '', ...headerLines] = bytes.subarray(0, headEnd).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? bytes.length - headEnd - 4);
  const text = bytes.subarray(headEnd + 4, headEnd + 4 + length).toString();
  let body: unknown = text;
  if (headers['content-type']?.includes('application/json')) {
    try {
      body = JSON.parse(text);
    } catch {
      // A truncated answer stays text, which the assertion shows.
    }
  }
  return { status, headers, body };
}
