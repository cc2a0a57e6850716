import { randomBytes } from 'node:crypto';

/** Registers through the API, for journeys that are not about signing up. */
export async function registerViaApi(baseUrl: string, overrides: Record<string, string> = {}) {
  const input = {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: `e2e-${randomBytes(5).toString('hex')}@example.com`,
    password: 'correct horse',
    ...overrides,
  };
  const response = await fetch(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  if (response.status !== 201) throw new Error(`register failed: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { token: string; user: { id: string } };
  return { ...input, token: body.token, user: body.user };
}

export function uniqueEmail(): string {
  return `e2e-${randomBytes(5).toString('hex')}@example.com`;
}
