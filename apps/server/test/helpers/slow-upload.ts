import { randomBytes } from 'node:crypto';
import http from 'node:http';

/**
 * A multipart upload whose body is sent in two halves: the first at once, the second when
 * `finish` is called. Resolves `answer` with the status and body the server gives.
 */
export function startSlowUpload(url: string, token: string, content: Buffer) {
  const boundary = `----cloudvault${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const body = Buffer.concat([head, content, tail]);
  const half = Math.floor(body.length / 2);
  let answered!: (value: { status: number; body: string }) => void;
  const answer = new Promise<{ status: number; body: string }>((resolve) => (answered = resolve));
  const request = http.request(`${url}/api/files/upload`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(body.length),
    },
  });
  request.on('response', (response) => {
    let text = '';
    response.on('data', (chunk: Buffer) => (text += chunk.toString()));
    response.on('end', () => answered({ status: response.statusCode ?? 0, body: text }));
  });
  request.on('error', (error) => answered({ status: 0, body: error.message }));
  request.write(body.subarray(0, half));
  return { answer, finish: () => request.end(body.subarray(half)) };
}
