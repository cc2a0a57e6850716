import net from 'node:net';
import { performance } from 'node:perf_hooks';

/** What a download measured: the body is counted and dropped. */
export interface Download {
  status: number;
  /** Body bytes (chunked framing excluded). */
  bytes: number;
  ms: number;
  /** From the request to the first bytes of the response (its head). */
  firstByteMs: number;
}

/** Counts the payload of a chunked body as it streams past, framing excluded. */
class ChunkedCounter {
  bytes = 0;
  done = false;
  private state: 'size' | 'data' | 'data-end' | 'trailer' = 'size';
  private line = '';
  private remaining = 0;

  feed(buffer: Buffer, start: number, end: number): void {
    let at = start;
    while (at < end && !this.done) {
      if (this.state === 'data') {
        const take = Math.min(this.remaining, end - at);
        this.bytes += take;
        this.remaining -= take;
        at += take;
        if (this.remaining === 0) this.state = 'data-end';
        continue;
      }
      const byte = buffer[at++]!;
      if (byte !== 0x0a) {
        this.line += String.fromCharCode(byte);
        continue;
      }
      const line = this.line.replace(/\r$/, '');
      this.line = '';
      if (this.state === 'data-end') {
        this.state = 'size';
      } else if (this.state === 'size') {
        const size = Number.parseInt(line.split(';')[0]!, 16);
        if (!Number.isSafeInteger(size) || size < 0) throw new Error(`bad chunk size line "${line}"`);
        if (size === 0) this.state = 'trailer';
        else [this.remaining, this.state] = [size, 'data'];
      } else if (line === '') {
        this.done = true;
      }
    }
  }
}

const HEADER_END = Buffer.from('\r\n\r\n');
/** Every read lands in a buffer of this size, reused for the whole response. */
const READ_BUFFER_BYTES = 1024 * 1024;

/**
 * One response as it is read into a reused buffer: the head parsed, the body counted and
 * dropped. Content-Length, chunked and read-to-close bodies.
 */
class ResponseReader {
  status = 0;
  /** performance.now() when the first bytes came in. */
  firstByteAt = 0;
  private head: Buffer | null = Buffer.alloc(0);
  private length: number | null = null;
  private chunked: ChunkedCounter | null = null;
  private bytes = 0;

  get bodyBytes(): number {
    return this.chunked ? this.chunked.bytes : this.bytes;
  }

  /** Takes the first `read` bytes of `buffer`; true once the whole response is in. */
  feed(buffer: Buffer, read: number): boolean {
    this.firstByteAt ||= performance.now();
    if (this.head === null) return this.body(buffer, 0, read);
    this.head = Buffer.concat([this.head, buffer.subarray(0, read)]);
    const split = this.head.indexOf(HEADER_END);
    if (split < 0) return false;
    const [statusLine, ...lines] = this.head.subarray(0, split).toString('latin1').split('\r\n');
    this.status = Number(statusLine!.split(' ')[1]);
    const fields = new Map(
      lines.map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    if (fields.get('transfer-encoding')?.toLowerCase().includes('chunked')) this.chunked = new ChunkedCounter();
    else if (fields.has('content-length')) this.length = Number(fields.get('content-length'));
    const rest = this.head.length - split - HEADER_END.length;
    this.head = null;
    // The bytes after the head came from `buffer`: they are its last `rest` read bytes.
    return rest > 0 || this.length === 0 ? this.body(buffer, read - rest, read) : false;
  }

  /** Why the response is incomplete when its connection ends now; null when it is whole. */
  cutShort(url: string): Error | null {
    if (this.head !== null) return new Error(`GET ${url}: connection closed before the response head`);
    if (this.chunked && !this.chunked.done) return new Error(`GET ${url}: connection closed inside the chunked body`);
    if (this.length !== null && this.bytes < this.length)
      return new Error(`GET ${url}: connection closed after ${this.bytes} of ${this.length} bytes`);
    return null;
  }

  private body(buffer: Buffer, start: number, end: number): boolean {
    if (this.chunked) this.chunked.feed(buffer, start, end);
    else this.bytes += end - start;
    if (this.length !== null && this.bytes > this.length) throw new Error(`${this.bytes - this.length} bytes past Content-Length`);
    return this.chunked?.done === true || (this.length !== null && this.bytes === this.length);
  }
}

function requestHead(url: URL, headers: Record<string, string>, connection: 'close' | 'keep-alive'): string {
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n${extra}Connection: ${connection}\r\n\r\n`;
}

/**
 * An HTTP/1.1 GET on its own connection that reads into one reused 1 MiB buffer (net's
 * `onread`) and only counts. node:http allocates a buffer per chunk and tops out near
 * 1.1 GB/s on this machine, while nginx's sendfile serves about 2 GB/s (curl reaches it):
 * with node:http as the client, the client would be the ceiling. Content-Length, chunked
 * and read-to-close bodies are handled.
 */
export function fastGet(url: string, headers: Record<string, string>, idleTimeoutMs: number): Promise<Download> {
  const target = new URL(url);
  const buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
  const response = new ResponseReader();
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let settled = false;
    const finish = (error?: Error | null) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      if (error) reject(error);
      else
        resolve({
          status: response.status,
          bytes: response.bodyBytes,
          ms: performance.now() - started,
          firstByteMs: response.firstByteAt - started,
        });
    };
    const onread = (read: number) => {
      try {
        if (response.feed(buffer, read)) finish();
      } catch (error) {
        finish(error as Error);
      }
    };
    const socket = net.connect(
      { host: target.hostname, port: Number(target.port), onread: { buffer, callback: (read) => (onread(read), true) } },
      () => socket.write(requestHead(target, headers, 'close')),
    );
    socket.setTimeout(idleTimeoutMs, () => finish(new Error(`GET ${url}: no progress for ${idleTimeoutMs / 1000} s`)));
    socket.once('error', (error) => finish(error));
    socket.once('end', () => finish(response.cutShort(url)));
  });
}

/** Sequential GETs to one server over one kept-alive connection. */
export interface KeptAliveGetter {
  get(url: string, headers: Record<string, string>): Promise<Download>;
  close(): void;
}

/**
 * fastGet's reading (one reused buffer, bodies counted) for many small requests in a row on
 * one kept-alive connection, opened again if the server closes it: what a listing series
 * needs. node:http's client spends 5-7 ms of CPU per 2.9 MB answer here (a Buffer and an
 * event per 64 KiB read, 50-70 collections per 200 answers), and its collections made the
 * p99 of every server, nginx's static file as much as ours (docs/decisions/0034).
 */
export function keptAliveGetter(idleTimeoutMs: number): KeptAliveGetter {
  const buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
  let socket: net.Socket | null = null;
  let socketOrigin = '';
  // The response being read and how it ends; one at a time, as requests are sequential.
  let current: { url: string; response: ResponseReader; finish: (error?: Error | null) => void } | null = null;

  const connect = (target: URL) => {
    const opened = net.connect({
      host: target.hostname,
      port: Number(target.port),
      onread: {
        buffer,
        callback: (read) => {
          if (!current) {
            opened.destroy(new Error(`${read} bytes from ${target.origin} with no request outstanding`));
            return false;
          }
          try {
            if (current.response.feed(buffer, read)) current.finish();
          } catch (error) {
            current.finish(error as Error);
          }
          return true;
        },
      },
    });
    opened.setTimeout(idleTimeoutMs, () => opened.destroy(new Error(`no progress for ${idleTimeoutMs / 1000} s`)));
    // A connection replaced by another (a new origin) ends no request of the new one.
    opened.on('error', (error) => {
      if (socket === opened) current?.finish(error);
    });
    opened.on('close', () => {
      if (socket !== opened) return;
      socket = null;
      current?.finish(current.response.cutShort(current.url));
    });
    return opened;
  };

  return {
    get(url, headers) {
      if (current) return Promise.reject(new Error('keptAliveGetter: one request at a time'));
      const target = new URL(url);
      if (socket && socketOrigin !== target.origin) socket.destroy();
      if (!socket || socket.destroyed) [socket, socketOrigin] = [connect(target), target.origin];
      const started = performance.now();
      const response = new ResponseReader();
      return new Promise((resolve, reject) => {
        current = {
          url,
          response,
          finish: (error) => {
            current = null;
            if (error) {
              socket?.destroy();
              reject(error);
            } else {
              resolve({
                status: response.status,
                bytes: response.bodyBytes,
                ms: performance.now() - started,
                firstByteMs: response.firstByteAt - started,
              });
            }
          },
        };
        socket!.write(requestHead(target, headers, 'keep-alive'));
      });
    },
    close: () => socket?.destroy(),
  };
}
