import http from 'node:http';
import type { Readable } from 'node:stream';
import type { TestServer } from './test-server.ts';

/** A WebDAV answer: status, headers and the body as text. */
export interface DavAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** An app password made for the user through the API, as a WebDAV client is given one. */
export async function davPassword(server: TestServer, user: { token: string; password?: string }): Promise<string> {
  // Making an app password takes the account password (docs/decisions/0037-app-password-policy.md).
  const body = { name: 'WebDAV test client', password: user.password ?? 'correct horse' };
  const created = await server.request('POST', '/api/user/app-passwords', { token: user.token, body });
  if (created.status !== 201) throw new Error(`app password not created: ${created.status} ${created.text}`);
  return created.body.password as string;
}

/** HTTP Basic credentials for a user. */
export const basicAuth = (email: string, password: string) => `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;

/**
 * One request with the path sent exactly as given (fetch would resolve `..` and
 * normalise it), over node:http. A stream body is sent as it comes.
 */
export function davRequest(
  server: TestServer,
  method: string,
  rawPath: string,
  options: { auth?: string; headers?: Record<string, string>; body?: string | Buffer | Readable } = {},
): Promise<DavAnswer> {
  const { port } = new URL(server.url);
  const headers: Record<string, string> = { ...(options.auth ? { authorization: options.auth } : {}), ...options.headers };
  const body = options.body;
  if ((typeof body === 'string' || Buffer.isBuffer(body)) && headers['content-length'] === undefined)
    headers['content-length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port: Number(port), method, path: rawPath, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    request.on('error', reject);
    if (body === undefined || typeof body === 'string' || Buffer.isBuffer(body)) request.end(body);
    else body.pipe(request);
  });
}

/** A signed-in WebDAV client of one user: `dav('PUT', '/dav/a.txt', {...})`. */
export async function davClientFor(server: TestServer, user: { email: string; token: string }) {
  const auth = basicAuth(user.email, await davPassword(server, user));
  return (method: string, rawPath: string, options: { headers?: Record<string, string>; body?: string | Buffer | Readable } = {}) =>
    davRequest(server, method, rawPath, { ...options, auth });
}
