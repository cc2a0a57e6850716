import { createReadStream } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { type Download, fastGet } from './fast-get.ts';
import { type Exchange, multipartFile, request } from './http-client.ts';

/** The few API calls the benchmark makes as a signed-in user of our server. */
export interface CloudVaultClient {
  url: string;
  token: string;
  userId: string;
  /** What a WebDAV client signs in with, with an app password. */
  email: string;
  idleTimeoutMs: number;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function call(
  client: Pick<CloudVaultClient, 'url' | 'idleTimeoutMs'> & { token?: string },
  method: string,
  path: string,
  body?: unknown,
) {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const response = await request(`${client.url}${path}`, {
    method,
    headers: {
      ...(client.token ? { authorization: `Bearer ${client.token}` } : {}),
      ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
    },
    body: payload ? () => Readable.from(payload) : undefined,
    keepText: true,
    idleTimeoutMs: client.idleTimeoutMs,
  });
  if (response.status >= 400)
    throw new ApiError(response.status, `${method} ${path} answered ${response.status}: ${response.text.slice(0, 300)}`);
  return response.text ? JSON.parse(response.text) : undefined;
}

/** The bench user's account password: making an app password asks for it again. */
export const BENCH_PASSWORD = 'benchmark-password';

/** Registers a fresh user (the FREE plan, which the benchmark's plans file makes limitless). */
export async function register(url: string, idleTimeoutMs: number): Promise<CloudVaultClient> {
  const email = `bench-${Date.now()}@example.com`;
  const body = await call({ url, idleTimeoutMs }, 'POST', '/api/auth/register', {
    firstName: 'Bench',
    lastName: 'Mark',
    email,
    password: BENCH_PASSWORD,
  });
  return { url, idleTimeoutMs, token: body.token, userId: body.user.id, email };
}

export async function createFolder(client: CloudVaultClient, name: string): Promise<string> {
  return (await call(client, 'POST', '/api/user/folders', { name, parentId: null })).folder.id;
}

/** Deletes a file for good (trash, then the trash emptied), so that a long bench run does not fill the disk. */
export async function removeFile(client: CloudVaultClient, fileId: string): Promise<void> {
  await call(client, 'DELETE', `/api/files/${fileId}`);
  await call(client, 'DELETE', '/api/trash');
}

/**
 * Turns zip compression off when the settings route exists, so the folder zip is stored
 * like the ceiling's. Returns what the zip will be and why.
 */
export async function storeZipsUncompressed(client: CloudVaultClient): Promise<{ stored: boolean; why: string }> {
  try {
    const { settings } = await call(client, 'GET', '/api/user/settings');
    await call(client, 'PUT', '/api/user/settings', { ...settings, storage: { ...settings.storage, compressionEnabled: false } });
    return { stored: true, why: 'compressionEnabled set to false through PUT /api/user/settings' };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404)
      return { stored: false, why: 'no /api/user/settings route yet: the zip is deflated (random bytes do not shrink)' };
    throw error;
  }
}

/** Uploads a file from disk as multipart; the parsed answer and the exchange's timing. */
export async function upload(client: CloudVaultClient, filePath: string, size: number, name: string, folderId?: string) {
  const form = multipartFile(filePath, size, name, folderId ? { folderId } : {});
  const response: Exchange = await request(`${client.url}/api/files/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${client.token}`, ...form.headers },
    body: form.body,
    keepText: true,
    idleTimeoutMs: client.idleTimeoutMs,
  });
  if (response.status !== 201)
    throw new ApiError(response.status, `upload of ${name} answered ${response.status}: ${response.text.slice(0, 300)}`);
  const { file } = JSON.parse(response.text);
  if (file.size !== size) throw new Error(`upload of ${name}: stored ${file.size} bytes of ${size}`);
  return { id: file.id as string, ms: response.ms };
}

/**
 * A tus upload (creation, then PATCHes of `chunkBytes` read from disk in 1 MiB pieces) with
 * the same HTTP client as `upload`, so that a comparison of the two measures the server.
 */
export async function tusUpload(client: CloudVaultClient, filePath: string, size: number, name: string, chunkBytes: number) {
  const started = performance.now();
  const tusHeaders = { authorization: `Bearer ${client.token}`, 'tus-resumable': '1.0.0' };
  const created = await request(`${client.url}/api/uploads`, {
    method: 'POST',
    headers: { ...tusHeaders, 'upload-length': size, 'upload-metadata': `filename ${Buffer.from(name).toString('base64')}` },
    keepText: true,
    idleTimeoutMs: client.idleTimeoutMs,
  });
  const location = created.headers.location;
  if (created.status !== 201 || !location)
    throw new ApiError(created.status, `tus creation of ${name} answered ${created.status}: ${created.text.slice(0, 300)}`);
  let fileId: string | undefined;
  for (let offset = 0; offset < size; offset += chunkBytes) {
    const end = Math.min(size, offset + chunkBytes);
    const patched = await request(new URL(location, client.url).href, {
      method: 'PATCH',
      headers: {
        ...tusHeaders,
        'upload-offset': offset,
        'content-type': 'application/offset+octet-stream',
        'content-length': end - offset,
      },
      body: () => createReadStream(filePath, { start: offset, end: end - 1, highWaterMark: 1024 * 1024 }),
      keepText: true,
      idleTimeoutMs: client.idleTimeoutMs,
    });
    if (patched.status !== 204)
      throw new ApiError(patched.status, `tus PATCH of ${name} at ${offset} answered ${patched.status}: ${patched.text.slice(0, 300)}`);
    fileId = patched.headers['x-file-id'] as string | undefined;
  }
  if (!fileId) throw new Error(`tus upload of ${name}: the last PATCH named no file`);
  return { id: fileId, ms: performance.now() - started };
}

/** A signed-in download whose body is counted and discarded, with the same client as the ceilings'. */
export function download(client: CloudVaultClient, path: string): Promise<Download> {
  return fastGet(`${client.url}${path}`, { authorization: `Bearer ${client.token}` }, client.idleTimeoutMs);
}
