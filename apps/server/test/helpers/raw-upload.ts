import net from 'node:net';

const BOUNDARY = 'cloudvault-raw-boundary';
const HEAD = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
/** A small file part before the large one: the server refuses the second file only once it begins. */
const LEADING_FILE = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="small.txt"\r\nContent-Type: text/plain\r\n\r\nsmall\r\n`;
const TAIL = `\r\n--${BOUNDARY}--\r\n`;
const CHUNK = Buffer.alloc(1024 * 1024, 7);

/** One HTTP response read off the wire. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What a raw upload saw: every response in order (a 100 Continue, then the final one) and how far it got. */
export interface RawUploadResult {
  responses: RawResponse[];
  /** The final answer, when one could be read. */
  final: (RawResponse & { json: { error?: string; code?: string; file?: unknown } | undefined }) | undefined;
  /** File bytes written to the socket (without the multipart framing). */
  bodyBytesSent: number;
  /** A socket error (ECONNRESET, EPIPE), if one happened. */
  error: NodeJS.ErrnoException | undefined;
}

/** Splits the bytes read so far into complete responses (status line, headers, Content-Length body). */
function parseResponses(buffer: Buffer): { responses: RawResponse[]; rest: Buffer } {
  const responses: RawResponse[] = [];
  let rest = buffer;
  for (;;) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd < 0) break;
    const [statusLine = '', ...lines] = rest.subarray(0, headEnd).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const status = Number(statusLine.split(' ')[1]);
    const length = status < 200 ? 0 : Number(headers['content-length'] ?? 0);
    if (rest.length < headEnd + 4 + length) break;
    responses.push({ status, headers, body: rest.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8') });
    rest = rest.subarray(headEnd + 4 + length);
  }
  return { responses, rest };
}

/**
 * Sends a multipart upload of `fileBytes` bytes over a plain TCP socket, as a client that
 * pays no attention to an early answer: without `expectContinue` it sends the whole body
 * before it reads anything (reading is paused, so an answer waits in the kernel buffer,
 * where a reset would wipe it); with `expectContinue` it sends the headers only, waits for
 * the interim or final answer, and sends the body only after a 100 Continue.
 */
export async function rawUpload(options: {
  port: number;
  /** Sent as a bearer token; none without it. */
  token?: string;
  /** Where to post it: the upload route unless given. */
  path?: string;
  fileBytes: number;
  expectContinue?: boolean;
  /** Sends a small file part first, so that the refusal (one file per upload) comes mid-body. */
  leadingFile?: boolean;
  host?: string;
}): Promise<RawUploadResult> {
  const socket = net.connect({ port: options.port, host: options.host ?? '127.0.0.1' });
  let received: Buffer = Buffer.alloc(0);
  let responses: RawResponse[] = [];
  let error: NodeJS.ErrnoException | undefined;
  let bodyBytesSent = 0;
  socket.on('error', (failure) => {
    error ??= failure;
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  let onResponse = () => {};
  socket.on('data', (chunk: Buffer) => {
    const parsed = parseResponses(Buffer.concat([received, chunk]));
    received = parsed.rest;
    responses = [...responses, ...parsed.responses];
    if (parsed.responses.length > 0) onResponse();
  });
  const nextResponse = () =>
    new Promise<void>((resolve) => {
      if (socket.destroyed) return resolve();
      onResponse = resolve;
      socket.once('close', () => resolve());
    });

  const lead = options.leadingFile ? LEADING_FILE : '';
  const contentLength = lead.length + HEAD.length + options.fileBytes + TAIL.length;
  const head = [
    `POST ${options.path ?? '/api/files/upload'} HTTP/1.1`,
    `Host: 127.0.0.1:${options.port}`,
    ...(options.token === undefined ? [] : [`Authorization: Bearer ${options.token}`]),
    `Content-Type: multipart/form-data; boundary=${BOUNDARY}`,
    `Content-Length: ${contentLength}`,
    ...(options.expectContinue ? ['Expect: 100-continue'] : []),
    '',
    '',
  ].join('\r\n');

  const sendBody = async () => {
    const write = (bytes: Buffer | string) =>
      socket.write(bytes) ? Promise.resolve() : Promise.race([new Promise((resolve) => socket.once('drain', resolve)), closed]);
    await write(lead + HEAD);
    for (let left = options.fileBytes; left > 0 && !socket.destroyed; left -= CHUNK.length) {
      const piece = left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left);
      await write(piece);
      bodyBytesSent += piece.length;
    }
    if (!socket.destroyed) socket.write(TAIL);
  };

  await Promise.race([new Promise((resolve) => socket.once('connect', resolve)), closed]);
  if (options.expectContinue) {
    const answered = nextResponse();
    socket.write(head);
    await answered;
    if (responses[0]?.status === 100) {
      const final = nextResponse();
      await sendBody();
      if (responses.length < 2) await final;
    }
  } else {
    socket.pause();
    socket.write(head);
    await sendBody();
    const final = nextResponse();
    socket.resume();
    if (responses.length === 0) await final;
  }
  socket.destroy();
  await closed;

  const last = responses.at(-1);
  const final = last && last.status >= 200 ? { ...last, json: last.body ? JSON.parse(last.body) : undefined } : undefined;
  return { responses, final, bodyBytesSent, error };
}
