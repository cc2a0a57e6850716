/**
 * The API client's rules about sessions, retries and errors, and the feed follower's about
 * cuts and resets, against a small HTTP stand-in that answers what each test scripts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, type RetryPolicy } from './api-client.ts';
import { followChanges, type FeedEvent } from './feed-follower.ts';
import { RemoteError } from './remote-error.ts';

type Handler = (request: http.IncomingMessage, response: http.ServerResponse, body: string) => void;

let stand: http.Server | undefined;
afterEach(async () => {
  stand?.closeAllConnections();
  await new Promise((resolve) => stand?.close(resolve));
  stand = undefined;
});

/** A server on 127.0.0.1 that sends every request (with its body) to `handler`; answers its origin. */
async function standIn(handler: Handler): Promise<string> {
  stand = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => handler(request, response, body));
  });
  await new Promise<void>((resolve) => stand?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(stand.address() as AddressInfo).port}`;
}

const json = (response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
};

/** Waits recorded instead of slept. */
function recordedSleeps(): { retry: Partial<RetryPolicy>; waits: number[] } {
  const waits: number[] = [];
  return { waits, retry: { sleep: async (ms) => void waits.push(ms) } };
}

const credentials = (server: string) => ({ server, email: 'ann@example.com', appPassword: 'app-password', device: 'laptop' });

describe('the API client', () => {
  it('takes a session with the app password, and a new one once when it expired', async () => {
    const sessions: string[] = [];
    let valid = 'token-1';
    const server = await standIn((request, response, body) => {
      if (request.url === '/api/auth/device-session') {
        sessions.push(body);
        valid = `token-${sessions.length}`;
        return json(response, 200, { token: valid, user: { id: 'u1' } });
      }
      if (request.headers.authorization !== `Bearer ${valid}`)
        return json(response, 401, { error: 'Session expired', code: 'SESSION_EXPIRED' });
      json(response, 200, { cursor: 'c1' });
    });
    const api = createApiClient(credentials(server));
    expect(await api.json({ path: '/api/changes/latest' })).toEqual({ cursor: 'c1' });
    expect(JSON.parse(sessions[0] as string)).toEqual({ email: 'ann@example.com', password: 'app-password', device: 'laptop' });
    valid = 'revoked';
    expect(await api.json({ path: '/api/changes/latest' })).toEqual({ cursor: 'c1' });
    expect(sessions).toHaveLength(2);
  });

  it('says why when the app password no longer works', async () => {
    const server = await standIn((_, response) => json(response, 401, { error: 'Wrong e-mail or password', code: 'INVALID_CREDENTIALS' }));
    const failure = await createApiClient(credentials(server))
      .json({ path: '/api/changes/latest' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RemoteError);
    expect(failure).toMatchObject({ status: 401, code: 'INVALID_CREDENTIALS', message: 'Wrong e-mail or password' });
  });

  it("retries 503 and 429 after the server's Retry-After, within a bounded total", async () => {
    let busy = 2;
    const server = await standIn((request, response) => {
      if (request.url === '/api/auth/device-session') return json(response, 200, { token: 't', user: { id: 'u1' } });
      if (busy-- > 0) return json(response, 503, { error: 'Busy', code: 'SERVICE_UNAVAILABLE' }, { 'retry-after': '3' });
      json(response, 201, { done: true });
    });
    const sleeps = recordedSleeps();
    const api = createApiClient(credentials(server), { retry: sleeps.retry });
    expect(await api.json({ method: 'POST', path: '/api/user/folders', json: { name: 'a' } })).toEqual({ done: true });
    expect(sleeps.waits).toEqual([3000, 3000]);

    busy = 1000;
    const bounded = recordedSleeps();
    const failure = await createApiClient(credentials(server), { retry: bounded.retry })
      .json({ path: '/api/changes/latest' })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(bounded.waits.reduce((sum, ms) => sum + ms, 0)).toBeLessThanOrEqual(60_000);
  });

  it('retries a GET when no answer came, never a POST that may have been done', async () => {
    let requests = 0;
    const server = await standIn((request, response) => {
      if (request.url === '/api/auth/device-session') return json(response, 200, { token: 't', user: { id: 'u1' } });
      requests += 1;
      if (requests % 2 === 1) return request.socket.destroy();
      json(response, 200, { ok: true });
    });
    const sleeps = recordedSleeps();
    const api = createApiClient(credentials(server), { retry: sleeps.retry });
    expect(await api.json({ path: '/api/changes/latest' })).toEqual({ ok: true });
    expect(requests).toBe(2);
    const failure = await api.json({ method: 'POST', path: '/api/user/folders', json: { name: 'a' } }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 0, code: 'NETWORK' });
    expect(requests).toBe(3);
  });
});

describe('the feed follower', () => {
  it('hears pages as they come, opens a cut stream again from the last cursor, and stops on reset', async () => {
    const asked: string[] = [];
    const server = await standIn((request, response) => {
      if (request.url === '/api/auth/device-session') return json(response, 200, { token: 't', user: { id: 'u1' } });
      const cursor = new URL(request.url as string, 'http://x').searchParams.get('cursor') as string;
      asked.push(cursor);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      if (cursor === 'c0') {
        response.write(': keep-alive\n\n');
        // The connection breaks once the page is out.
        const page = JSON.stringify({ changes: [{ op: 'created' }], cursor: 'c1', hasMore: false });
        return response.write(`id: c1\nevent: changes\ndata: ${page}\n\n`, () => response.socket?.destroy());
      }
      response.end(`event: reset\ndata: ${JSON.stringify({ error: 'expired', code: 'CURSOR_EXPIRED' })}\n\n`);
    });
    const events: FeedEvent[] = [];
    const end = await followChanges(
      createApiClient(credentials(server)),
      'c0',
      (event) => events.push(event),
      new AbortController().signal,
      {
        backoffMs: [1, 1],
      },
    );
    expect(end).toBe('reset');
    expect(asked).toEqual(['c0', 'c1']);
    expect(events).toEqual([{ type: 'changes', page: { changes: [{ op: 'created' }], cursor: 'c1', hasMore: false } }, { type: 'reset' }]);
  });
});
