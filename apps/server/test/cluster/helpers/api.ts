import { randomBytes } from 'node:crypto';
import type { AuthResponse } from '@cloudvault/contract/accounts';

/**
 * The few API calls the scenarios make through the balancer. They take any server with a
 * URL, the shape of the shared test factories that issue-container's branch brings
 * (@cloudvault/test-support), which can replace them once both are merged.
 */
export interface RunningServer {
  url: string;
}

export interface ApiAnswer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** One JSON request, its answer parsed whatever the status. */
export async function request<T = any>(server: RunningServer, method: string, path: string, options: { token?: string; body?: unknown } = {}): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${server.url}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const text = await response.text();
  const body = response.headers.get('content-type')?.includes('application/json') && text ? JSON.parse(text) : text;
  return { status: response.status, headers: response.headers, body, text };
}

/** Registers a new user with a unique address; answers the token and the credentials. */
export async function createUser(server: RunningServer) {
  const input = { firstName: 'Ada', lastName: 'Lovelace', email: `cluster-${randomBytes(6).toString('hex')}@example.com`, password: 'correct horse' };
  const registered = await request<AuthResponse>(server, 'POST', '/api/auth/register', { body: input });
  if (registered.status !== 201) throw new Error(`register failed: ${registered.status} ${registered.text}`);
  return { ...input, token: registered.body.token, user: registered.body.user };
}

/** Buys Pro through the built-in test checkout, as the browser's Pay button does. */
export async function subscribe(server: RunningServer, token: string): Promise<void> {
  const created = await request(server, 'POST', '/api/subscriptions/create-checkout-session', { token, body: { planType: 'PRO' } });
  if (created.status !== 200) throw new Error(`checkout answered ${created.status}: ${created.text}`);
  // The session URL is made from PUBLIC_URL, which is the balancer's address.
  const paid = await fetch(`${created.body.sessionUrl}/pay`, { method: 'POST', redirect: 'manual' });
  if (paid.status !== 303) throw new Error(`pay answered ${paid.status}: ${await paid.text()}`);
}
