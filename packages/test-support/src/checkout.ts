import type { PlanId } from '@cloudvault/contract/plans';
import type { SessionUrlResponse } from '@cloudvault/contract/subscriptions';
import type { RunningServer } from './running-server.ts';

/** The path and query of a URL the server made (its PUBLIC_URL may not be the address tests reach it at). */
export function pathOf(url: string): string {
  const parsed = new URL(url, 'http://localhost:3000');
  return parsed.pathname + parsed.search;
}

/** A page of the server fetched as a browser would, redirects not followed. */
export async function fetchPage(server: RunningServer, url: string, init: RequestInit = {}) {
  const response = await fetch(`${server.url}${pathOf(url)}`, { redirect: 'manual', ...init });
  return {
    status: response.status,
    location: response.headers.get('location'),
    type: response.headers.get('content-type'),
    html: await response.text(),
  };
}

/** A plain HTML form post. */
export function postForm(server: RunningServer, url: string, fields: Record<string, string> = {}) {
  return fetchPage(server, url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}

/** Buys a paid plan through the server's built-in test checkout, as the browser's Pay button does. */
export async function subscribe(server: RunningServer, token: string, planType: Exclude<PlanId, 'FREE'> = 'PRO') {
  const created = await fetch(`${server.url}/api/subscriptions/create-checkout-session`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ planType }),
  });
  if (created.status !== 200) throw new Error(`checkout answered ${created.status}: ${await created.text()}`);
  const { sessionUrl } = (await created.json()) as SessionUrlResponse;
  const paid = await postForm(server, `${sessionUrl}/pay`);
  if (paid.status !== 303) throw new Error(`pay answered ${paid.status}: ${paid.html}`);
  return { sessionUrl, sessionId: sessionUrl.split('/').pop() as string, location: paid.location };
}
