import { randomBytes } from 'node:crypto';
import type { AuthResponse } from '@cloudvault/contract/accounts';
import type { Folder } from '@cloudvault/contract/folders';
import type { TestServer } from './test-server.ts';

let counter = 0;

/** A unique, valid registration payload; override any field. */
export function newUserInput(overrides: Partial<Record<'firstName' | 'lastName' | 'email' | 'password', string>> = {}) {
  counter += 1;
  return {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: `user${counter}-${randomBytes(4).toString('hex')}@example.com`,
    password: 'correct horse',
    ...overrides,
  };
}

/** Registers through the API and returns the token with the credentials used. */
export async function createUser(server: TestServer, overrides: Parameters<typeof newUserInput>[0] = {}) {
  const input = newUserInput(overrides);
  const response = await server.request('POST', '/api/auth/register', { body: input });
  if (response.status !== 201) throw new Error(`register failed: ${response.status} ${response.text}`);
  const body = response.body as AuthResponse;
  return { ...input, token: body.token, user: body.user };
}

/** Creates a folder through the API (at the top level unless a parent is given) and returns it. */
export async function createFolder(server: TestServer, token: string, name: string, parentId: string | null = null): Promise<Folder> {
  const response = await server.request('POST', '/api/user/folders', { token, body: { name, parentId } });
  if (response.status !== 201) throw new Error(`create folder failed: ${response.status} ${response.text}`);
  return response.body.folder as Folder;
}

/**
 * The token of the newest link to `path` mailed to `email`, read from the server's mail
 * queue (every message is stored there before it is sent, over SMTP or to the outbox).
 */
export async function mailedToken(server: TestServer, email: string, path: '/verify-email' | '/reset-password'): Promise<string> {
  const mails = await server.container.database.db
    .selectFrom('mail_queue')
    .select(['text_body', 'created_at'])
    .where('recipient', '=', email)
    .orderBy('created_at', 'desc')
    .execute();
  const pattern = new RegExp(`${server.container.config.publicUrl}${path}\\?token=([A-Za-z0-9_-]+)`);
  for (const mail of mails) {
    const match = pattern.exec(mail.text_body);
    if (match) return match[1] as string;
  }
  throw new Error(`no ${path} link was mailed to ${email}`);
}

/** Verifies the user's address through the link of their verification mail, as they would. */
export async function verifyEmail(server: TestServer, email: string): Promise<void> {
  const response = await server.request('POST', '/api/auth/verify-email', { body: { token: await mailedToken(server, email, '/verify-email') } });
  if (response.status !== 200) throw new Error(`verify-email failed: ${response.status} ${response.text}`);
}

/** A registered user whose address is verified (private shares need one). */
export async function createVerifiedUser(server: TestServer, overrides: Parameters<typeof newUserInput>[0] = {}) {
  const created = await createUser(server, overrides);
  await verifyEmail(server, created.email);
  return { ...created, user: { ...created.user, emailVerified: true } };
}
