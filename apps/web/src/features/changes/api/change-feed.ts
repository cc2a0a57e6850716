import type { ChangesLatestResponse } from '@cloudvault/contract/changes';
import { api, ApiError, apiUrl, getToken, reportUnauthorized } from '../../../lib/api-client';
import { createSseParser, type SseEvent } from '../sse-parser';

/** GET /api/changes/latest: the feed's position now (nothing before it). */
export function getLatestCursor(signal?: AbortSignal): Promise<ChangesLatestResponse> {
  return api.get<ChangesLatestResponse>('/changes/latest', { signal });
}

/**
 * GET /api/changes/stream?cursor=: reads the server-sent events after `cursor` until the
 * server ends the stream or `signal` aborts. A fetch, not an EventSource, so it carries the
 * session's bearer header as every other call does. A refusal before the stream starts
 * (400, 410, 429) rejects with ApiError; a 401 ends the session as apiRequest's does.
 * `onBytes` hears of every chunk, keep-alive comments too: the caller's sign of life.
 */
export async function readChangeStream(
  cursor: string,
  handlers: { onEvent: (event: SseEvent) => void; onOpen: () => void; onBytes: () => void },
  signal: AbortSignal,
): Promise<void> {
  const token = getToken();
  const headers: Record<string, string> = { Accept: 'text/event-stream' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(apiUrl('/changes/stream', { cursor }), { headers, signal, cache: 'no-store' });
  if (!response.ok || !response.body) throw await refusal(response, token);
  handlers.onOpen();
  const parser = createSseParser();
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      handlers.onBytes();
      for (const event of parser.push(decoder.decode(value, { stream: true }))) handlers.onEvent(event);
    }
  } finally {
    // Frees the connection when the reading stopped early (a handler threw); a no-op after the end.
    reader.cancel().catch(() => undefined);
  }
}

async function refusal(response: Response, token: string | null): Promise<ApiError> {
  if (response.status === 401) reportUnauthorized(token);
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const field = (name: string) => {
    const value = (body as Record<string, unknown> | undefined)?.[name];
    return typeof value === 'string' ? value : undefined;
  };
  const message = field('error');
  return new ApiError(response.status, message ?? `Request failed with status ${response.status}`, field('code'), body, message);
}
