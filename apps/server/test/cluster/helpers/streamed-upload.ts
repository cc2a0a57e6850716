import { randomBytes } from 'node:crypto';
import http from 'node:http';

/** The server's answer to an upload, or the connection's failure when none came. */
export type UploadOutcome = { status: number; body: any } | { status: 0; error: Error };

/**
 * A multipart upload whose file bytes the test sends when it chooses: start it, send part of
 * the file, hold it there while other requests run, then send the rest (or cut it off).
 * The body is generated as it goes (a repeating pattern), never held whole in memory.
 */
export interface StreamedUpload {
  /** Settles as soon as the server answers, which may be before the body is complete. */
  readonly outcome: Promise<UploadOutcome>;
  /** File bytes sent so far. */
  sent(): number;
  /** Sends file bytes up to `total` (of the file, not the body), waiting on backpressure. */
  sendUpTo(total: number): Promise<void>;
  /** Sends the rest of the file and the closing boundary. */
  finish(): Promise<void>;
  /** Drops the connection. */
  abort(): void;
}

const CHUNK = 256 * 1024;

export function startStreamedUpload(baseUrl: string, token: string, options: { name: string; size: number }): StreamedUpload {
  const boundary = `----cloudvault-${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${options.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const pattern = Buffer.alloc(CHUNK, options.name);
  let sent = 0;
  let failure: Error | undefined;

  const request = http.request(`${baseUrl}/api/files/upload`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(head.length + options.size + tail.length),
    },
  });
  const outcome = new Promise<UploadOutcome>((resolve) => {
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', (error) => resolve({ status: 0, error }));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
      });
    });
    request.on('error', (error) => {
      failure = error;
      resolve({ status: 0, error });
    });
  });
  request.flushHeaders();
  request.write(head);

  const write = (bytes: Buffer) =>
    new Promise<void>((resolve, reject) => {
      if (failure) return reject(failure);
      if (request.write(bytes)) return resolve();
      const onDrain = () => {
        request.off('error', onError);
        resolve();
      };
      const onError = (error: Error) => {
        request.off('drain', onDrain);
        reject(error);
      };
      request.once('drain', onDrain);
      request.once('error', onError);
    });

  async function sendUpTo(total: number) {
    while (sent < Math.min(total, options.size)) {
      const length = Math.min(CHUNK, total - sent, options.size - sent);
      await write(pattern.subarray(0, length));
      sent += length;
    }
  }

  return {
    outcome,
    sent: () => sent,
    sendUpTo,
    async finish() {
      await sendUpTo(options.size);
      await new Promise<void>((resolve) => request.end(tail, resolve));
    },
    abort: () => request.destroy(),
  };
}
