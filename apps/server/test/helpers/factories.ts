import { randomBytes } from 'node:crypto';
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
  return { ...input, token: response.body.token as string, user: response.body.user };
}
