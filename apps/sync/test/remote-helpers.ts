/**
 * What the remote-side tests share: the server as its own process (the bundle; the client's
 * type-checking must not reach into the server's sources), users signed in the client's way
 * (an app password), and the few drive calls that set a scene.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { createAppPassword, createUser } from '@cloudvault/test-support/accounts';
import { startServerProcess, type ServerProcess } from '../../server/test/helpers/server-process.ts';
import { SQLITE_FILE_NAME, withClient } from '../../server/test/helpers/test-database.ts';
import { createApiClient, type ApiClient } from '../src/remote/api-client.ts';

export type { ServerProcess };

/** The server bundle on a random port with its own data; `stop()` removes it. */
export function startServer(env: Record<string, string> = {}): Promise<ServerProcess> {
  return startServerProcess(env);
}

/** The newest verification link's token mailed to `email`, read from the server's mail queue. */
async function verificationToken(server: ServerProcess, email: string): Promise<string> {
  const pattern = /\/verify-email\?token=([A-Za-z0-9_-]+)/;
  const query = 'SELECT text_body FROM mail_queue WHERE recipient = $1 ORDER BY created_at DESC';
  let bodies: string[] = [];
  if (server.env.DATABASE_URL) {
    await withClient(server.env.DATABASE_URL, async (client) => {
      bodies = (await client.query<{ text_body: string }>(query, [email])).rows.map((row) => row.text_body);
    });
  } else {
    const db = new Database(path.join(server.env.DATA_DIR as string, SQLITE_FILE_NAME), { readonly: true });
    bodies = (db.prepare(query.replace('$1', '?')).all(email) as { text_body: string }[]).map((row) => row.text_body);
    db.close();
  }
  for (const body of bodies) {
    const match = pattern.exec(body);
    if (match) return match[1] as string;
  }
  throw new Error(`no verification link was mailed to ${email}`);
}

/** A JSON call as `token`; anything but a 2xx fails the scene's set-up. */
export async function call<T = unknown>(server: ServerProcess, token: string, method: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** A user with a verified address (shares need one) and a client signed in with an app password. */
export async function signedInUser(server: ServerProcess, overrides: { firstName?: string; lastName?: string } = {}) {
  const user = await createUser(server, overrides);
  await call(server, user.token, 'POST', '/api/auth/verify-email', { token: await verificationToken(server, user.email) });
  const appPassword = await createAppPassword(server, user);
  const api: ApiClient = createApiClient({ server: server.url, email: user.email, appPassword, device: 'test-laptop' });
  return { ...user, appPassword, api };
}

/** Uploads `content` as `name` through the ordinary multipart route (`replace`: onto a taken name); answers the file's id. */
export async function upload(
  server: ServerProcess,
  token: string,
  name: string,
  content: string | Uint8Array,
  folderId: string | null = null,
  conflict?: 'replace',
) {
  const form = new FormData();
  if (folderId !== null) form.append('folderId', folderId);
  if (conflict !== undefined) form.append('conflict', conflict);
  form.append('file', new Blob([content]), name);
  const response = await fetch(`${server.url}/api/files/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (response.status !== 201) throw new Error(`upload ${name}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { file: { id: string } }).file.id;
}

/** Makes a folder; answers its id. */
export async function folder(server: ServerProcess, token: string, name: string, parentId: string | null = null): Promise<string> {
  return (await call<{ folder: { id: string } }>(server, token, 'POST', '/api/user/folders', { name, parentId })).folder.id;
}
