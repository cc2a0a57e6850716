/**
 * Follows the change feed as server-sent events (GET /api/changes/stream, read from a fetch
 * body since it needs the bearer header) so continuous mode wakes a pass within a second of a
 * change on the server. It only wakes: the pass itself reads the changes (refreshMirror).
 */
import type { ApiClient } from './api-client.ts';
import { isRemoteError, RemoteError } from './remote-error.ts';
import type { FeedPage } from './remote-mirror.ts';

/** What the follower tells: a page of changes, or that the cursor expired and the mirror must be listed again. */
export type FeedEvent = { type: 'changes'; page: FeedPage } | { type: 'reset' };

/** Why following ended. */
export type FollowEnd = 'aborted' | 'reset';

export interface FollowOptions {
  /** A stream silent this long is taken as dead and opened again (the server sends a keep-alive every 25 s). */
  silenceMs?: number;
  /** Waits between reconnections: doubling from the first, capped at the second. */
  backoffMs?: [number, number];
}

interface SseMessage {
  id?: string;
  event: string;
  data: string;
}

/** Splits an SSE body into messages (fields id, event, data; `:` comments ignored). */
async function* sseMessages(body: ReadableStream<Uint8Array>, onBytes: () => void): AsyncGenerator<SseMessage> {
  const decoder = new TextDecoder();
  let pending = '';
  let message: SseMessage = { event: 'message', data: '' };
  let hasData = false;
  for await (const chunk of body) {
    onBytes();
    pending += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = pending.search(/\r?\n/)) >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + (pending[newline] === '\r' ? 2 : 1));
      if (line === '') {
        if (hasData) yield message;
        message = { event: 'message', data: '' };
        hasData = false;
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') message.id = value;
      else if (field === 'event') message.event = value;
      else if (field === 'data') {
        message.data = hasData ? `${message.data}\n${value}` : value;
        hasData = true;
      }
    }
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * Follows the feed from `cursor`, calling `onChange` for each page as it is committed, until
 * `signal` aborts ('aborted') or the cursor expires ('reset', after telling `onChange`: list
 * again, then follow from the new cursor). A cut or silent stream is opened again from the
 * last page's cursor, with backoff. Throws RemoteError for what waiting cannot mend (401: the
 * app password was deleted; 400).
 */
export async function followChanges(
  api: ApiClient,
  cursor: string,
  onChange: (event: FeedEvent) => void,
  signal: AbortSignal,
  options: FollowOptions = {},
): Promise<FollowEnd> {
  const silenceMs = options.silenceMs ?? 60_000;
  const [firstBackoff, maxBackoff] = options.backoffMs ?? [1000, 30_000];
  let backoff = firstBackoff;
  while (!signal.aborted) {
    const attempt = new AbortController();
    const stop = () => attempt.abort();
    signal.addEventListener('abort', stop);
    let silence = setTimeout(stop, silenceMs);
    const heard = () => {
      clearTimeout(silence);
      silence = setTimeout(stop, silenceMs);
    };
    try {
      const response = await api.request({
        path: '/api/changes/stream',
        query: { cursor },
        headers: { accept: 'text/event-stream' },
        signal: attempt.signal,
      });
      if (response.body === null) throw new RemoteError(0, 'NETWORK', 'The change stream had no body');
      for await (const message of sseMessages(response.body, heard)) {
        if (message.event === 'reset') {
          onChange({ type: 'reset' });
          return 'reset';
        }
        if (message.event !== 'changes') continue;
        const page = JSON.parse(message.data) as FeedPage;
        cursor = page.cursor;
        backoff = firstBackoff;
        onChange({ type: 'changes', page });
      }
    } catch (error) {
      if (signal.aborted) break;
      if (isRemoteError(error, 'CURSOR_EXPIRED')) {
        onChange({ type: 'reset' });
        return 'reset';
      }
      if (error instanceof RemoteError && error.status !== 0 && error.status < 500 && error.status !== 429) throw error;
      // A network error, a cut or silent stream, a 5xx: open it again after a while.
    } finally {
      clearTimeout(silence);
      signal.removeEventListener('abort', stop);
    }
    await sleep(backoff, signal);
    backoff = Math.min(backoff * 2, maxBackoff);
  }
  return 'aborted';
}
