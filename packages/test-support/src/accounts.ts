import { randomBytes } from 'node:crypto';
import type { AuthResponse, RegisterBody } from '@cloudvault/contract/accounts';
import type { RunningServer } from './running-server.ts';

let counter = 0;

/** An address no other test uses. */
export function uniqueEmail(): string {
  counter += 1;
  return `user${counter}-${randomBytes(4).toString('hex')}@example.com`;
}

/** A unique, valid registration payload; override any field. */
export function newUserInput(overrides: Partial<RegisterBody> = {}): RegisterBody {
  return { firstName: 'Ada', lastName: 'Lovelace', email: uniqueEmail(), password: 'correct horse', ...overrides };
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
