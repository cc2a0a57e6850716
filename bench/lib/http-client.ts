import { createReadStream } from 'node:fs';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * One HTTP client for every server, so differences are the servers'. node:http rather than
 * fetch: no per-chunk promise and web-stream overhead on the reading side, and a request
 * body that is piped from a read stream, never held in memory.
 */
const agent = new http.Agent({ keepAlive: true });
const CHUNK = 1024 * 1024;
/** Responses larger than this are counted, not kept. */
const KEEP_LIMIT = 64 * 1024 * 1024;

export interface Exchange {
  status: number;
  /** Bytes of the response body. */
  bytes: number;
  /** The body as text when it was asked for. */
  text: string;
  /** From sending the request to the last byte of the response. */
  ms: number;
  headers: http.IncomingHttpHeaders;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string | number>;
  /** Streamed as the request body. */
  body?: () => Readable;
  /** Keep the response body as text (JSON answers); otherwise it is only counted. */
  keepText?: boolean;
  idleTimeoutMs: number;
}

export function request(url: string, options: RequestOptions): Promise<Exchange> {
  const method = options.method ?? 'GET';
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(url, { method, headers: options.headers, agent });
    req.setTimeout(options.idleTimeoutMs, () =>
      req.destroy(new Error(`${method} ${url}: no progress for ${options.idleTimeoutMs / 1000} s`)),
    );
    req.once('error', reject);
    req.once('response', (res) => {
      let bytes = 0;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (options.keepText && bytes <= KEEP_LIMIT) chunks.push(chunk);
      });
      res.once('error', reject);
      res.once('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          bytes,
          text: Buffer.concat(chunks).toString(),
          ms: performance.now() - started,
          headers: res.headers,
        }),
      );
    });
    if (options.body) pipeline(options.body(), req).catch(reject);
    else req.end();
  });
}

/** Reads a file from disk in 1 MiB chunks, as a client uploading from disk does. */
export const fileStream = (filePath: string) => () => createReadStream(filePath, { highWaterMark: CHUNK });

/** PUT of the raw file, as a WebDAV client sends it. */
export function putFile(url: string, filePath: string, size: number, idleTimeoutMs: number): Promise<Exchange> {
  return request(url, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream', 'content-length': size },
    body: fileStream(filePath),
    keepText: true,
    idleTimeoutMs,
  });
}

/**
 * A multipart/form-data body built around a read stream of the file, with its exact
 * length: optional fields first (the API wants folderId before the file), then one `file`
 * part. The file's bytes are never buffered.
 */
export function multipartFile(filePath: string, size: number, fileName: string, fields: Record<string, string> = {}) {
  const boundary = `----cloudvault-bench-${Math.random().toString(16).slice(2)}`;
  const fieldParts = Object.entries(fields)
    .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join('');
  const head = Buffer.from(
    `${fieldParts}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  async function* parts() {
    yield head;
    yield* createReadStream(filePath, { highWaterMark: CHUNK });
    yield tail;
  }
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + size + tail.length },
    body: () => Readable.from(parts(), { objectMode: false }),
  };
}

/** Closes the kept-alive sockets so the servers can stop at once. */
export function closeConnections(): void {
  agent.destroy();
}
