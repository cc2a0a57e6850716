import { randomBytes } from 'node:crypto';
import type { AuthResponse, RegisterBody } from '@cloudvault/contract/accounts';
import type { RunningServer } from './running-server.ts';

let counter = 0;

/** An address no other test uses. */
export function uniqueEmail(): string {
  counter += 1;
  return `user${counter}-${randomBytes(4).toString('hex')}@example.com`;
}

/** The password of every user made here unless a test gives another. */
export const DEFAULT_PASSWORD = 'correct horse';

/** A unique, valid registration payload; override any field. */
export function newUserInput(overrides: Partial<RegisterBody> = {}): RegisterBody {
  return { firstName: 'Ada', lastName: 'Lovelace', email: uniqueEmail(), password: DEFAULT_PASSWORD, ...overrides };
}

/**
 * Makes an app password as the Settings page does: it takes the account password (and a
 * code while two-factor is on). Answers the secret, which WebDAV clients sign in with.
 */
export async function createAppPassword(
  server: RunningServer,
  user: { token: string; password?: string },
  options: { name?: string; totpCode?: string } = {},
): Promise<string> {
  const response = await fetch(`${server.url}/api/user/app-passwords`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
    body: JSON.stringify({
      name: options.name ?? 'WebDAV test client',
      password: user.password ?? DEFAULT_PASSWORD,
      ...(options.totpCode ? { totpCode: options.totpCode } : {}),
    }),
  });
  if (response.status !== 201) throw new Error(`app password not created: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { password: string }).password;
}

/** Registers through the API and returns the token and user with the credentials used. */
export async function createUser(server: RunningServer, overrides: Partial<RegisterBody> = {}) {
  const input = newUserInput(overrides);
  const response = await fetch(`${server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  if (response.status !== 201) throw new Error(`register failed: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as AuthResponse;
  return { ...input, token: body.token, user: body.user };
}
