import type { TestServer } from './test-server.ts';

/** The path and query of a URL the server made (its PUBLIC_URL is not the test server's address). */
export function pathOf(url: string): string {
  const parsed = new URL(url, 'http://localhost:3000');
  return parsed.pathname + parsed.search;
}

/** A page of the server fetched as a browser would, redirects not followed. */
export async function fetchPage(server: TestServer, url: string, init: RequestInit = {}) {
  const response = await fetch(`${server.url}${pathOf(url)}`, { redirect: 'manual', ...init });
  return { status: response.status, location: response.headers.get('location'), type: response.headers.get('content-type'), html: await response.text() };
}

/** A plain HTML form post. */
export function postForm(server: TestServer, url: string, fields: Record<string, string> = {}) {
  return fetchPage(server, url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
}

/** Buys a paid plan through the local test checkout, as the browser does. */
export async function subscribe(server: TestServer, token: string, planType: 'PRO' | 'PREMIUM' = 'PRO') {
  const created = await server.request('POST', '/api/subscriptions/create-checkout-session', { token, body: { planType } });
  if (created.status !== 200) throw new Error(`checkout answered ${created.status}: ${created.text}`);
  const sessionUrl = created.body.sessionUrl as string;
  const paid = await postForm(server, `${sessionUrl}/pay`);
  if (paid.status !== 303) throw new Error(`pay answered ${paid.status}`);
  return { sessionUrl, sessionId: sessionUrl.split('/').pop() as string, location: paid.location };
}
